/* sbx-launch: --landlock, a second layer under the mounts (landlock.c). */
#ifndef SBX_LANDLOCK_H
#define SBX_LANDLOCK_H
#include "spec.h"

void step_landlock(const struct spec *s);

#endif
