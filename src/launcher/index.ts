export { launch, launcherPath, prebuiltSeccompPath, TAIL_BYTES } from './launch.js';
export { selftest, type Check } from './selftest.js';
export { startResident } from './resident.js';
export { SbxError } from '../contract/errors.js';
export { ERROR_CODES, exitFor, setupExit, type ErrorCode } from '../contract/error-codes.js';
export { exitForSignal, signalName, signalNumber } from '../contract/signals.js';
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
