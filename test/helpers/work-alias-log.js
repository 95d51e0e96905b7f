// The log the work-alias tests read (test/engine/work-alias, test/python/work-alias): a CMake build that
// names the work dir at `work`, beside two paths that only start the same (a longer name, another root).
export const log = (work) =>
  [
    '[ 50%] Building C object CMakeFiles/x.dir/src/x.c.o',
    `${work}/src/x.c:2:10: error: ‘nope’ undeclared (first use in this function)`,
    `make[2]: Leaving directory '${work}/build'`,
    '/home/u/proj2/src/y.c:3:1: error: not the work dir',
    '/opt/home/u/proj/src/z.c:4:1: error: not the work dir either',
    '',
  ].join('\n');

/** The errors' places (`file:line`) of a verdict. */
export const errorPlaces = (verdict) => verdict.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.file}:${d.line}`);
