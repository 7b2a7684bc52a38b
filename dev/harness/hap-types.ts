// HomeKit's numbers for the dev tools (the HomeKit controller, the demo's insecure client, the benchmark): HAP service and
// characteristic UUIDs, status codes and characteristic values, in one place.

const HAP_UUID_SUFFIX = '-0000-1000-8000-0026BB765291';
/** A HAP type's full UUID from its short form ("41", "0E"), upper case as HAP-NodeJS and hap-controller report it. */
export const hapUuid = (short: string): string => `${short.padStart(8, '0')}${HAP_UUID_SUFFIX}`;

/** HAP service types used by the plugin (full UUIDs, upper case as hap-controller reports them). */
export const HAP_SERVICE = {
  AccessoryInformation: hapUuid('3E'),
  GarageDoorOpener: hapUuid('41'),
  LockMechanism: hapUuid('45'),
  Battery: hapUuid('96'),
  Switch: hapUuid('49'),
  OccupancySensor: hapUuid('86'),
  ContactSensor: hapUuid('80'),
  MotionSensor: hapUuid('85'),
} as const;

/** HAP characteristic types used by the plugin. */
export const HAP_CHARACTERISTIC = {
  Manufacturer: hapUuid('20'),
  Model: hapUuid('21'),
  Name: hapUuid('23'),
  ObstructionDetected: hapUuid('24'),
  SerialNumber: hapUuid('30'),
  TargetDoorState: hapUuid('32'),
  FirmwareRevision: hapUuid('52'),
  BatteryLevel: hapUuid('68'),
  StatusLowBattery: hapUuid('79'),
  ChargingState: hapUuid('8F'),
  CurrentDoorState: hapUuid('0E'),
  LockCurrentState: hapUuid('1D'),
  LockTargetState: hapUuid('1E'),
  On: hapUuid('25'),
  OccupancyDetected: hapUuid('71'),
  ContactSensorState: hapUuid('6A'),
  ConfiguredName: hapUuid('E3'),
  MotionDetected: hapUuid('22'),
  StatusActive: hapUuid('75'),
} as const;

export type HapServiceName = keyof typeof HAP_SERVICE;
export type HapCharacteristicName = keyof typeof HAP_CHARACTERISTIC;

/** HAP status codes (HAP-NodeJS HAPStatus); -70402 is what Home shows as "No Response". */
export const HAP_STATUS = {
  SUCCESS: 0,
  INSUFFICIENT_PRIVILEGES: -70401,
  SERVICE_COMMUNICATION_FAILURE: -70402,
  RESOURCE_BUSY: -70403,
  READ_ONLY_CHARACTERISTIC: -70404,
  WRITE_ONLY_CHARACTERISTIC: -70405,
  NOTIFICATION_NOT_SUPPORTED: -70406,
  OUT_OF_RESOURCE: -70407,
  OPERATION_TIMED_OUT: -70408,
  RESOURCE_DOES_NOT_EXIST: -70409,
  INVALID_VALUE_IN_REQUEST: -70410,
  INSUFFICIENT_AUTHORIZATION: -70411,
  NOT_ALLOWED_IN_CURRENT_STATE: -70412,
} as const;

/** CurrentDoorState values. */
export const CURRENT_DOOR_STATE = { OPEN: 0, CLOSED: 1, OPENING: 2, CLOSING: 3, STOPPED: 4 } as const;
/** TargetDoorState values. */
export const TARGET_DOOR_STATE = { OPEN: 0, CLOSED: 1 } as const;
/** LockCurrentState values. */
export const LOCK_CURRENT_STATE = { UNSECURED: 0, SECURED: 1, JAMMED: 2, UNKNOWN: 3 } as const;
/** LockTargetState values. */
export const LOCK_TARGET_STATE = { UNSECURED: 0, SECURED: 1 } as const;
/** ChargingState values. */
export const CHARGING_STATE = { NOT_CHARGING: 0, CHARGING: 1, NOT_CHARGEABLE: 2 } as const;
/** StatusLowBattery values. */
export const STATUS_LOW_BATTERY = { NORMAL: 0, LOW: 1 } as const;
