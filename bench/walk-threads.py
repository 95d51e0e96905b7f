"""What `sbx-launch --walk` (native/walk.c) costs a file, wall and CPU, one build against another (issue 32):
the threads of the walk against a build from before them, or the same build on one thread.

    python3 bench/walk-threads.py --old OLD_SBX_LAUNCH [--new build/sbx-launch] [--rounds 21] [--files 100000] [--tree DIR]... [--fifo]

Trees made here once (files of 1 byte): --files (100 000) in dirs of 20, three levels, a .claude every 5 000 (as
bench/tree-sizes.js makes them), walked and given as git's list (--files list); one directory of as many;
1 000 in 50 dirs (below the threshold of threads). --tree DIR adds a tree of the caller's, walked as it is
(a real repository, a copy of /usr/share). Variants: old, new (its default threads), new --threads 2 (what
a machine with a free CPU gets, whatever the load now). Rounds interleaved (the order rotates), medians,
the page cache warm (a repeat run: each tree is walked once by each variant first, and their outputs must
be the same bytes). CPU is user+sys of the walker and all its threads (wait4). On a shared machine give
--fifo (as root: the timed runs at SCHED_FIFO 10, as `chrt -f 10`, once the trees are made), and say the
load (printed)."""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

ap = argparse.ArgumentParser()
ap.add_argument('--old', required=True)
ap.add_argument('--new', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'build', 'sbx-launch'))
ap.add_argument('--rounds', type=int, default=21)
ap.add_argument('--tree', action='append', default=[])
ap.add_argument('--files', type=int, default=100_000)
ap.add_argument('--fifo', action='store_true')
a = ap.parse_args()

SKIP = ['.sbx', '.git', '.hg', '.svn', 'node_modules', 'target', '__pycache__', '.pytest_cache', '.mypy_cache']
CONTROL = ['.git', '.gitmodules', '.claude', '.vscode', '.mcp.json', 'CLAUDE.md']
FLAGS = sum((['--skip-dir', d] for d in SKIP), []) + sum((['--control', c] for c in CONTROL), [])
FLAGS += ['--repo-mark', 'HEAD', '--repo-mark', 'objects', '--repo-mark', 'refs']
WALK = ['--files', 'walk', '--max', '1000000'] + FLAGS

base = tempfile.mkdtemp(prefix='sbx-bench-walk-')


def touch(path, data=b'x'):
    with open(path, 'wb') as f:
        f.write(data)


def plain(d, n):
    for i in range(n):
        sub = os.path.join(d, f'p{i // 2000}', f'm{i // 200 % 10}', f'd{i // 20 % 10}')
        if i % 20 == 0:
            os.makedirs(sub)
        touch(os.path.join(sub, f'f{i}.js'))
        if i % 5000 == 0:
            os.makedirs(os.path.join(sub, '.claude'))
            touch(os.path.join(sub, '.claude', 'settings.json'), b'{}')


def flat(d, n):
    os.makedirs(d)
    for i in range(n):
        touch(os.path.join(d, f'file-{i}'))


def listing(d):
    """The files under d, NUL-separated in byte order: what git ls-files -z gives the walker."""
    rels = [os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(d) for f in fs]
    path = d + '.list'
    touch(path, b''.join(r.encode() + b'\0' for r in sorted(rels, key=os.fsencode)))
    return path


big = os.path.join(base, 'plain100k')
plain(big, a.files)
flat(os.path.join(base, 'flat100k'), a.files)
plain(os.path.join(base, 'small1k'), 1000)
trees = [(f'{a.files} files, walk', big, WALK, None), (f'{a.files} files, --files list', big, ['--files', 'list'] + FLAGS, listing(big)),
         (f'one dir of {a.files}, walk', os.path.join(base, 'flat100k'), WALK, None), ('1 000 files, walk', os.path.join(base, 'small1k'), WALK, None)]
trees += [(t, t, WALK, None) for t in a.tree]
variants = [('old', a.old, []), ('new', a.new, []), ('new -t2', a.new, ['--threads', '2'])]
out_path = os.path.join(base, 'out')


def run(binary, extra, d, flags, inp):
    fd = os.open(inp or '/dev/null', os.O_RDONLY)
    out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    t0 = time.perf_counter()
    pid = os.posix_spawn(binary, [binary, '--walk', d] + flags + extra, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, fd, 0), (os.POSIX_SPAWN_DUP2, out, 1)])
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    os.close(fd)
    os.close(out)
    if status != 0:
        raise SystemExit(f'walk-threads: {binary} --walk {d} failed ({status})')
    with open(out_path, 'rb') as f:
        recs = f.read().split(b'\0')
    return wall, ru.ru_utime + ru.ru_stime, int(next(r for r in recs if r.startswith(b'N'))[1:]), recs


try:
    if a.fifo:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
    files, res = {}, {(t[0], v[0]): ([], []) for t in trees for v in variants}
    for t in trees:
        outs = [run(v[1], v[2], *t[1:]) for v in variants]
        if any(o[3] != outs[0][3] for o in outs):
            raise SystemExit(f'walk-threads: the variants disagree on {t[0]}')
        files[t[0]] = outs[0][2]
    for r in range(a.rounds):
        for t in trees:
            for v in variants[r % 3:] + variants[:r % 3]:
                w, c, _, _ = run(v[1], v[2], *t[1:])
                res[(t[0], v[0])][0].append(w)
                res[(t[0], v[0])][1].append(c)
    print(f'{a.rounds} rounds, medians, warm page cache, uid {os.getuid()}, load after: {os.getloadavg()}')
    print(f'{"tree":34} {"files":>7} | wall µs/file: old   new   -t2   new/old -t2/old | CPU µs/file: old   new   -t2   -t2/old')
    for t in trees:
        m = {v[0]: [statistics.median(x) * 1e6 / files[t[0]] for x in res[(t[0], v[0])]] for v in variants}
        (wo, co), (wn, cn), (w2, c2) = m['old'], m['new'], m['new -t2']
        print(f'{t[0][-34:]:34} {files[t[0]]:>7} |              {wo:5.2f} {wn:5.2f} {w2:5.2f} {wn / wo:7.2f} {w2 / wo:7.2f} |             {co:5.2f} {cn:5.2f} {c2:5.2f} {c2 / co:7.2f}')
finally:
    subprocess.run(['rm', '-rf', base])
