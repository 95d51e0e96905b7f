/* sbx-launch: --splice, an --allow-host download carried on the host (splice.c). */
#ifndef SBX_SPLICE_H
#define SBX_SPLICE_H

int splice_main(void);

#endif
