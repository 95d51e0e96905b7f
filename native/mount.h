/* sbx-launch: the new root (mount.c). */
#ifndef SBX_MOUNT_H
#define SBX_MOUNT_H
#include "spec.h"

int set_mount_attrs(const char *path, unsigned long long attrs, int recursive);
void step_root(const struct spec *s);

#endif
