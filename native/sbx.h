/* sbx-launch: the protocol with the TypeScript side (src/launcher/). Each
 * part of the launcher is one .c with its own .h, as bubblewrap splits its
 * own, and the parts stand in floors: a part includes only headers of the
 * floors below it, never one above or beside it in a loop
 * (test/launcher/native-layers.test.js checks it):
 *
 *   main        the entry: --serve, --splice, --walk, --watch, or one sandbox
 *   serve       --serve: a resident spawner, each child one launcher
 *   launch      one sandbox: init, supervise, the status
 *   command     the command process's own steps, then execve
 *   the steps   mount (the new root), ids (user namespace maps), net (lo,
 *               hostname), forward (--forward-unix), landlock, cgroup, relay
 *               (the command's output, counted) over log (the raw log, capped)
 *   report      the shared report page and the JSON status
 *   spec        argv -> struct spec
 *   walk, watch, splice, sha256: the work tree's fingerprint and watcher, a
 *               download carried on the host: programs of their own on util
 *   util        the ground floor: one die path, small I/O returning errors
 *   sbx.h       this file: what the TypeScript side must agree with */
#ifndef SBX_H
#define SBX_H

#define SBX_VERSION "0.1.0"
/* Bumped whenever the spec flags or the report shape change; the TypeScript
 * side refuses a launcher whose protocol differs. */
#define SBX_PROTO 13
/* The launcher (and init) exits with this when a setup step failed; the
 * details are in the report, or on stderr before there is one. */
#define EXIT_SETUP_FAILED 125

#endif
