/* sbx-launch: user namespace maps and idmapped binds (ids.c). */
#ifndef SBX_IDS_H
#define SBX_IDS_H
#include "spec.h"

extern long outer_uid, outer_gid;
extern int maps_pipe[2];
void step_mapped_ids(const struct spec *s);
int write_init_maps(const struct spec *s, pid_t init);
void prepare_trees(struct spec *s);
void idmap_keep(long map_uid, long map_gid);
int idmap_kept_fd(void);
void idmap_drop(void);
void step_id_maps(const struct spec *s);

#endif
