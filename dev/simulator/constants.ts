// Tunables of the service simulator, each named with its unit.

/** How long a door takes to reach a requested state after an accepted toggle. */
export const DEFAULT_TRAVEL_TIME_MS = 3_000;
/** Loopback only: the simulator is a test and demo tool, never a public server. */
export const DEFAULT_HOST = '127.0.0.1';
/** 0 asks the OS for a free ephemeral port, so parallel tests never collide. */
export const DEFAULT_PORT = 0;
/** Stands in for `$hardware_name` in the contract's toggle message templates. */
export const DEFAULT_HARDWARE_NAME = 'Gate Controller';
/** Header carrying the webhook key (contract section 6.3). */
export const DEFAULT_WEBHOOK_HEADER_NAME = 'X-Service-API-Key';
/** A webhook receiver slower than this counts as a failed delivery (the service never retries). */
export const WEBHOOK_TIMEOUT_MS = 5_000;
/** Request bodies larger than this are refused with 413 rather than buffered. */
export const MAX_REQUEST_BODY_BYTES = 1_048_576;
/** Idle keep-alive connections are kept this long, like a typical cloud front end. */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Path prefix of the unauthenticated control interface for demos and manual play. */
export const CONTROL_PATH_PREFIX = '/_simulator/';
/** Channel label recorded for toggles made through the API (i.e. by the plugin). */
export const API_CHANNEL = 'API';
/** Channel label for changes made outside HomeKit when the caller does not name one. */
export const DEFAULT_EXTERNAL_CHANNEL = 'Keypad';
