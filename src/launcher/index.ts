export { launch, launcherPath, prebuiltSeccompPath, TAIL_BYTES } from './launch.js';
export { selftest, type Check } from './selftest.js';
export { startResident } from './resident.js';
export { SbxError } from '../contract/index.js';
export { ERROR_CODES, exitFor, setupExit, type ErrorCode } from '../contract/index.js';
export { exitForSignal, signalName, signalNumber } from '../contract/index.js';
export { MAX_REVIEWED_SYSCALL, buildSeccompProgram, seccompSupported, DENY, ENOSYS_CALLS, IOCTL_DENIED, SOCKET_FAMILIES, unmappedSyscalls } from './seccomp.js';
export { buildSpec, fixedEnv, MAX_LOG_DEFAULT, MIN_MAX_LOG, NO_SECCOMP_AS_ROOT, parseMount, rootMapsAway } from './spec.js';
export { plantableSymlink, plantedMessage, type PlantedLink } from './trusted-path.js';
export { openRegular, openRegularAsync, readRegular, readRegularText, readRegularTextAsync, type RegularHandle, type SafeReadOptions } from './safe-read.js';
export { packageRoot } from './package-root.js';
export { readTail } from './file-tail.js';
export { parseStatus, LAUNCHER_PROTO } from './status.js';
export { isPublicAddress, matchHost, parseAllowHost, type HostPattern } from './allow-host.js';
export { defaultResolver, startEgressProxy, type Decision, type EgressProxy } from './egress-proxy.js';
export type {
  Applied, LaunchOptions, LaunchResult, Mount, Outcome, ProfileOptions, Rlimits, Rusage, SetupError, StopSignal,
} from './types.js';
// For the host layer, not the library's API: marked @internal, left out of the published types.
/** @internal */ export { childProcess, nodeCrypto, nodeNet, nodeOs, nodeStream } from './on-demand.js';
/** @internal */ export { diskFullError, isDiskFull } from './disk-full.js';
/** @internal */ export { workProblem } from './work-check.js';
/** @internal */ export { PATH, SANDBOX_HOME, SYSTEM_PATHS } from './spec.js';
/** @internal */ export type { NetworkApplied } from './types.js';
