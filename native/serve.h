/* sbx-launch: --serve, a resident spawner (serve.c). */
#ifndef SBX_SERVE_H
#define SBX_SERVE_H

int serve(void);

#endif
