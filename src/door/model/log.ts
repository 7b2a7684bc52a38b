// Where the door model's lines go: Homebridge's logger is one, a test's capture another.
export interface DoorLog {
  info(message: string): void;
  warn(message: string): void;
  debug(message: string): void;
}
