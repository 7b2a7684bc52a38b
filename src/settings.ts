// Names Homebridge knows the plugin by, and every internal tunable of the plugin with its unit. The options users set,
// with their defaults and ranges, are in option-catalog.ts.

/** The `platform` value users put in config.json; must match config.schema.json's pluginAlias. */
export const PLATFORM_NAME = 'AccessControl';
/** The npm package name; must match package.json. */
export const PLUGIN_NAME = 'homebridge-access-control';

/** Shown as Manufacturer in the Home app's accessory details. */
export const ACCESSORY_MANUFACTURER = 'Access Control';
/** Shown as Model in the Home app's accessory details. */
export const ACCESSORY_MODEL = 'Door Controller';

// Polling (the pollInterval option, its range and default, is in option-catalog.ts).
/** How often the account is synced while a door is moving, so Home follows it closely. */
export const ACTIVE_POLL_INTERVAL_MS = 2_000;

/** Poll interval while webhooks bring changes in real time: polling is then only the safety net. */
export const DEFAULT_RECONCILE_INTERVAL_S = 300;
export const MIN_RECONCILE_INTERVAL_S = 30;
/** The header the service puts its webhook API key in (contract 6.3). */
export const DEFAULT_WEBHOOK_HEADER_NAME = 'X-Service-API-Key';

// Failures and back-off.
/** Consecutive failed syncs after which doors answer "No Response" instead of a stale state. */
export const FAILED_SYNCS_BEFORE_NO_RESPONSE = 2;
/**
 * Milliseconds a door's flapping condition (its controller's active flag, a state the plugin cannot read) must stay away
 * before its incident ends: until then, coming back is counted, not logged, so one cause says at most three lines (start,
 * first end, the count) per incident and a few an hour.
 */
export const FLAP_QUIET_MS = 30 * 60_000;
/**
 * How long after a command of ours (ms) a move to the state it asked for is still ours when the door reports it only after
 * its movement ended (the transition timeout, or the answer): logged as from HomeKit, never as "changed outside HomeKit".
 */
export const OWN_COMMAND_LATE_MS = 5 * 60_000;
/** Upper bound of the exponential back-off between failed syncs. */
export const MAX_BACKOFF_MS = 5 * 60_000;
/** Share of each back-off delay that is randomised so many bridges do not retry in step. */
export const BACKOFF_JITTER_RATIO = 0.2;
/**
 * Longest wait a Retry-After may impose before the next sync. A service (or a proxy) asking for days would leave
 * every door on "No Response" that long; past this the plugin asks again and says so once.
 */
export const MAX_RETRY_AFTER_MS = 60 * 60_000;
/**
 * A door's state older than this many sync intervals (plus the longest a sync may take, READ_TIMEOUT_MS) shows No
 * Response: the service was not asked, or did not answer, in that time (a Retry-After, an outage), also after a restart.
 */
export const STATE_STALE_AFTER_SYNC_INTERVALS = 2;
/** Successful syncs a door must be missing from before it leaves HomeKit; one glitchy empty answer must not delete automations. */
export const SYNCS_MISSING_BEFORE_REMOVAL = 2;

// HTTP.
export const CONNECT_TIMEOUT_MS = 5_000;
export const HEADERS_TIMEOUT_MS = 10_000;
export const BODY_TIMEOUT_MS = 10_000;
/**
 * Whole-request bound for a sync or a history read. The body time-out runs between chunks only, so without it an
 * answer trickling in a byte at a time would hold a sync open for ever while Home shows stale states as current.
 */
export const READ_TIMEOUT_MS = 30_000;
/** Whole-request bound for a toggle: HAP gives a write handler about 9 s before it reports a time-out to Home. */
export const TOGGLE_TIMEOUT_MS = 8_000;
/** HAP-NodeJS answers a write with OPERATION_TIMED_OUT this long after it arrives (a 3 s timer, then 7 s more). */
export const HAP_WRITE_ANSWER_MS = 10_000;
/** Room left between a toggle's own time limit and HAP's answer, for the event loop and the network to Home. */
const COMMAND_ANSWER_MARGIN_MS = 1_000;
/**
 * Longest a command from Home may wait behind another one for the same door before it is dropped as failed: one that
 * started later could still be toggling when HAP has told Home it failed, and the door would then move anyway.
 */
export const COMMAND_START_DEADLINE_MS = HAP_WRITE_ANSWER_MS - TOGGLE_TIMEOUT_MS - COMMAND_ANSWER_MARGIN_MS;
/** Largest response body read; a bigger one is refused rather than buffered. */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** Idle keep-alive sockets are closed after this long. */
export const KEEP_ALIVE_TIMEOUT_MS = 30_000;
export const MAX_CONNECTIONS_PER_ORIGIN = 4;

// Accessories.
/** "Left open" time when neither the user nor the controller sets one. */
export const DEFAULT_LEFT_OPEN_AFTER_S = 5 * 60;
/**
 * How long a repeating left-open sensor stays clear before it detects again. HAP holds an OccupancyDetected change
 * about 250 ms to batch it with others, so a shorter clear could reach Home as no change at all; 2 s gives Home two
 * changes to see, and stays short beside the repeat (a minute at least).
 */
export const LEFT_OPEN_REPEAT_CLEARED_MS = 2_000;
/**
 * A door's toggle history is asked at most this often, to say who moved it (ms): a move found sooner waits for the next
 * look, which names every move found by then. History never delays HomeKit.
 */
export const HISTORY_MIN_INTERVAL_PER_DOOR_MS = 30_000;
/**
 * Between two reads of the history at start (ms), the baseline each later look is told from: one per controller, or one
 * per door where the service refuses a controller's history.
 */
export const HISTORY_BASELINE_PACE_MS = 2_000;
/**
 * A history read at start that failed for a passing reason (a time-out, an outage, a rate limit) is asked again this long
 * after (ms), four times longer at each try (30 s, 2 min, 8 min, 32 min, about 2 h): the Eve history's backfill and the
 * first move's name come from it. A request during a Retry-After wait fails without being sent (src/sync/service-wait.ts).
 */
export const HISTORY_BASELINE_RETRY_MS = 30_000;
/** Tries of one history read at start after the first: then its doors go without, as said at debug. */
export const HISTORY_BASELINE_RETRIES = 5;
/** Moves of one door one look names at most (the newest); older ones waiting for it name nobody. Bounds memory. */
export const HISTORY_MOVES_PER_LOOK_MAX = 20;
/** How long after its expected auto-close a door is followed closely before the normal pace resumes. */
export const AUTO_CLOSE_WATCH_MS = 30_000;
/**
 * How long an automation switch in "open only" mode stays on after it opened its door, before it turns itself off
 * again: long enough for Home to show it was flipped, short enough to be ready for the next automation.
 */
export const AUTOMATION_SWITCH_RESET_MS = 1_000;
/**
 * After an enforcer event's line, the next ones at the same doors within this long are counted, not logged one by one:
 * one line with the count at the end of each such window. A busy gate must not bury the log; the alert detects for each.
 */
export const ACCESS_ALERT_LOG_SUMMARY_INTERVAL_MS = 60_000;
/** Places (doors, controllers, unknown ones) whose enforcer events are counted apart within one such window; more share one count. */
export const ACCESS_ALERT_LOG_PLACES_MAX = 100;
/** HAP-NodeJS refuses more accessories than this on one bridge. */
export const MAX_ACCESSORIES_PER_BRIDGE = 149;
/** Webhooks' toggleIDs remembered so one toggle told twice (`door1_open`, `door_state_change`) detects once; in toggles. */
export const PERSON_MOVES_REMEMBERED_MAX = 1_000;
/**
 * How far a history entry's time may lie from the door's `last_toggled` and still be that move (ms): the service may date
 * the entry at the request and `last_toggled` when the door got there.
 */
export const PERSON_HISTORY_SLACK_MS = 30_000;
/** Moves of one door that webhooks told of, kept so the history's entries of them are not taken for another move. */
export const PERSON_TOLD_MOVES_PER_DOOR = 20;
/** E-mails whose names the person sensors remember from the history and webhooks, to tell a user named one way alone. */
export const PERSON_DIRECTORY_MAX = 1_000;
/**
 * A webhook's move dated earlier than this (ms) is old news: it detects nothing. It also bounds a history entry's age when
 * the service gives no `last_toggled` and there is no previous move or look to compare with.
 */
export const PERSON_MOVE_MAX_AGE_MS = 10 * 60_000;
/**
 * A webhook's move dated further ahead of the plugin's clock than this (ms) cannot be judged old or new: the service's
 * clock is off. It detects nothing; doubt fails closed.
 */
export const PERSON_MOVE_MAX_AHEAD_MS = 10 * 60_000;
/** The longest a person's name in HomeKit or the log may be, and an e-mail or name read from config.json (characters). */
export const PERSON_USER_MAX_CHARS = 254;
/** The most `people` entries one platform entry shows (they take accessories from the bridge's cap). */
export const MAX_PEOPLE = 50;

// Matter (Homebridge 2.x).
/** Matter's longest node label and serial number (characters, as matter.js counts them); a longer one fails registration. */
export const MATTER_MAX_STRING_LENGTH = 32;
/**
 * Milliseconds between two warnings that Homebridge refused a Matter call for one cause (registration, removal): an
 * incident is said when it starts and when it ends, and one that keeps coming back is said at most three times an hour.
 */
export const MATTER_REFUSAL_LOG_INTERVAL_MS = 20 * 60_000;
/** Milliseconds between two debug lines of refused Matter state updates (the ones held back are counted). */
export const MATTER_UPDATE_DEBUG_LOG_INTERVAL_MS = 10 * 60_000;

// Webhooks.
/** Largest webhook body read (bytes, also after decompression); one event is a few hundred bytes. */
export const WEBHOOK_MAX_BODY_BYTES = 64 * 1024;
/** A client must finish sending its headers within this long after connecting (or after the previous request). */
export const WEBHOOK_HEADERS_TIMEOUT_MS = 10_000;
/** A client must finish sending the whole request, body included, within this long; Node wants it >= the headers time-out. */
export const WEBHOOK_REQUEST_TIMEOUT_MS = 15_000;
/** An idle kept-alive webhook connection is closed after this long. */
export const WEBHOOK_KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Longest gap between Node's sweeps for connections past the two time-outs above (Node's default is 30 s). */
export const WEBHOOK_CONNECTIONS_CHECK_INTERVAL_MS = 1_000;
/** At most one warning per this long about refused (wrong or missing key) webhooks; the rest go to debug. */
export const WEBHOOK_UNAUTHORIZED_LOG_INTERVAL_MS = 60_000;
/** A TLS client must finish its handshake within this long (HTTPS mode; Node's default is 120 s). */
export const WEBHOOK_TLS_HANDSHAKE_TIMEOUT_MS = 10_000;
/**
 * Connections the webhook listener holds at once; past it a new one is closed as soon as it is accepted. The service
 * sends one event at a time; a flood must not use up the memory and file descriptors HomeKit's own port needs
 * (8,000 held connections cost ~140 MB, ~21,000 exhausted the file limit and the bridge stopped answering).
 */
export const WEBHOOK_MAX_CONNECTIONS = 128;
/** Connections one client address may hold at once, so one client cannot take the whole cap (a reverse proxy is one client). */
export const WEBHOOK_MAX_CONNECTIONS_PER_CLIENT = 64;
/**
 * At a connection cap the listener closes the oldest connection that has sent nothing for at least this long, to take
 * the new one; a younger one may be a webhook whose request has not been read yet (a burst, a slow TLS handshake).
 */
export const WEBHOOK_IDLE_EVICT_AFTER_MS = 2_000;
/** Requests one kept-alive connection may carry before it is closed, so one client cannot pipeline work without end. */
export const WEBHOOK_MAX_REQUESTS_PER_CONNECTION = 100;
/** At most one warning per this long about connections refused at the caps; the rest go to debug. */
export const WEBHOOK_CONNECTION_LIMIT_LOG_INTERVAL_MS = 60_000;
/** Event ids remembered to apply a repeated webhook once; the service sends each event once, so a short memory suffices. */
export const WEBHOOK_SEEN_IDS_MAX = 1_000;
/** A change a poll found must be confirmed by a webhook within this long, or webhooks seem not to arrive. */
export const WEBHOOK_MISS_GRACE_MS = 60_000;
/** At most one "webhooks seem not to reach Homebridge" warning per this long. */
export const WEBHOOK_MISS_WARN_INTERVAL_MS = 6 * 60 * 60_000;
/** An event older than the newest one applied is ignored only if that one came within this long: the service's clock may run ahead. */
export const WEBHOOK_OUT_OF_ORDER_WINDOW_MS = 60_000;

// Settings page (the Homebridge UI's custom page for this plugin).
/** "Sign in" gives up after this long, whatever the connection's own time-outs: the user is waiting on a spinner. */
export const SIGN_IN_DEADLINE_MS = 20_000;
/**
 * The settings page's own limit on any request to its server: longer than the server's deadlines (sign-in's above),
 * so their words come first, but a server that never answers still ends in a message rather than a spinner.
 */
export const PAGE_REQUEST_LIMIT_MS = SIGN_IN_DEADLINE_MS + 10_000;
/** "People and activity" reads each shown door's toggle history of this many days (today included). */
export const ACTIVITY_DAYS = 7;
/** History requests the settings server has in flight at once, whatever the page asks: the service must not be flooded. */
export const ACTIVITY_REQUESTS_IN_FLIGHT_MAX = 4;
/**
 * After the service answers 429 to a history read without saying how long to wait, the settings server asks no history
 * for this long (ms): the running bridge shares the token, and asking on would lengthen its lockout.
 */
export const ACTIVITY_RATE_LIMIT_PAUSE_MS = 60_000;
/** Doors the page asks the settings server for in one request: their reads, 4 at a time, end within the page's limit. */
export const ACTIVITY_DOORS_PER_REQUEST = 8;
/** One door's history read gives up after this long (ms); two rounds of 4 fit within PAGE_REQUEST_LIMIT_MS. */
export const ACTIVITY_DOOR_DEADLINE_MS = 10_000;
/** The most history entries the page gets of one door (newest first); older ones are counted, not sent. */
export const ACTIVITY_ENTRIES_PER_DOOR_MAX = 50;
/** The longest piece of the service's text (a name, a channel, a time) the page gets, in characters; an e-mail is sent whole or not at all. */
export const ACTIVITY_TEXT_MAX_CHARS = 64;
/** The settings page's "Send test event" gives up after this long. */
export const TEST_EVENT_TIMEOUT_MS = 5_000;
/** Event type of the settings page's test webhook: logged as a test, it moves no door and does not count as webhooks arriving. */
export const WEBHOOK_TEST_EVENT_TYPE = 'settings_page_test';
/**
 * The settings page's one-time value, sent to the listener before the key, and the listener's answer derived from it
 * and its key: "Send test event" sends the key only to a listener that proved it holds the same key.
 */
export const LISTENER_NONCE_HEADER = 'x-access-control-nonce';
export const LISTENER_PROOF_HEADER = 'x-access-control-proof';
/** The Homebridge UI's own port when its config block names none: a webhook listener must not take it. */
export const DEFAULT_HOMEBRIDGE_UI_PORT = 8581;

/** Renames of a door in the account within ACCOUNT_RENAME_QUIET_WINDOW_MS that are logged (and cached) each; more are followed quietly. */
export const ACCOUNT_RENAMES_BEFORE_QUIET = 5;
/** A door whose name changed more often than that within this time is renamed quietly until its name holds this long, ms. */
export const ACCOUNT_RENAME_QUIET_WINDOW_MS = 60 * 60_000;

// Eve history (src/eve/).
/** Records kept per door, the reference record aside: two weeks of the 10-minute repeat, besides the moves themselves. */
export const EVE_HISTORY_CAPACITY = 2016;
/** Milliseconds between the repeats of a door's state, so Eve's graph has no holes (Eve's own devices log every 10 minutes). */
export const EVE_HISTORY_REPEAT_MS = 10 * 60_000;
/** Days of the toggle history read at start for the Eve backfill, today included (the docs promise at least seven). */
export const EVE_BACKFILL_DAYS = 8;
/**
 * Milliseconds a door's live moves wait for its history read at start before they are written without it: the backfill
 * goes first (Eve keeps its entries in order), but an outage must not hold the live ones for ever.
 */
export const EVE_BACKFILL_WAIT_MS = 2 * 60_000;
/** Seconds before now a sync's last_toggled may be and still date the move the sync found (older is another move). */
export const EVE_MOVE_DATE_WINDOW_S = 10 * 60;
