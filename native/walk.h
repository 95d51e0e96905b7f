/* sbx-launch: --walk, the work tree's fingerprint and control entries (walk.c). */
#ifndef SBX_WALK_H
#define SBX_WALK_H

int walk_main(int argc, char **argv);

#endif
