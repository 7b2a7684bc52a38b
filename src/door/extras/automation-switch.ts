// The automation switch: a Switch that opens the door (and in "open-close" mode closes it) without the confirmation
// HomeKit asks before an automation runs a garage door.
import type { API, Service } from 'homebridge';

import type { DoorState } from '../../client/types.js';
import { AUTOMATION_SWITCH_RESET_MS } from '../../settings.js';
import { ensureNamedService } from '../../homekit/door-name.js';
import type { AutomationSwitchMode } from '../../config/door-options.js';
import type { ExtraDeps, ExtraSpec, ExtraDoor } from './extra.js';

/**
 * A Switch for automations. HomeKit asks for confirmation before an automation runs a garage door; it runs a switch
 * without asking, which is the point and the risk. In "open" mode (open only) turning it on opens the door and the
 * switch turns itself off again after AUTOMATION_SWITCH_RESET_MS; turning it off sends nothing, so a scene that turns
 * everything off can never close a gate onto a car. In "open-close" mode on opens, off closes, and it follows the door.
 * It refuses (the write fails, one log line) while its door answers No Response; a read-only door refuses the command.
 */
export class AutomationSwitch {
  private readonly service: Service;
  private readonly api: API;
  private readonly door: ExtraDoor;
  /** Open only: on from a write until the switch turns itself off again. */
  private momentarilyOn = false;
  private timer: unknown;
  /** Set at shutdown: a command answered later must not start the turn-off timer. */
  private disposed = false;

  constructor(
    { api, accessory, doorName, door }: ExtraDeps,
    private readonly mode: 'open' | 'open-close',
  ) {
    const { Characteristic: C } = api.hap;
    this.api = api;
    this.door = door;
    this.service = ensureNamedService(api.hap, accessory, automationSwitch.service(api.hap), doorName, automationSwitch);
    this.service
      .getCharacteristic(C.On)
      .onGet(() => door.answer(this.mode === 'open' ? this.momentarilyOn : door.target() === 'OPEN'))
      .onSet((on) => this.set(on === true));
  }

  /** Open and close: on while the door is open or opening. Open only: the switch keeps its own short on. */
  update(): void {
    if (this.mode === 'open-close') {
      this.service.updateCharacteristic(this.api.hap.Characteristic.On, this.door.target() === 'OPEN');
    }
  }

  dispose(): void {
    this.disposed = true;
    this.door.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async set(on: boolean): Promise<void> {
    if (this.mode === 'open' && !on) {
      return; // Open only: off never closes the door.
    }
    const wanted: DoorState = on ? 'OPEN' : 'CLOSED';
    if (!this.door.available()) {
      const { HapStatusError, HAPStatus } = this.api.hap;
      this.door.log.warn(`${this.door.name()} answers No Response, so its switch did not ${on ? 'open' : 'close'} it.`);
      this.turnOffSoon();
      throw new HapStatusError(HAPStatus.SERVICE_COMMUNICATION_FAILURE);
    }
    try {
      await this.door.command(wanted);
    } finally {
      if (this.mode === 'open') {
        this.momentarilyOn = true;
        this.turnOffSoon();
      }
    }
  }

  /** Open only: back to off after a moment, whether the door opened or the write failed. */
  private turnOffSoon(): void {
    if (this.mode !== 'open' || this.disposed) return;
    this.door.clock.clearTimeout(this.timer);
    this.timer = this.door.clock.setTimeout(() => {
      this.timer = undefined;
      this.momentarilyOn = false;
      this.service.updateCharacteristic(this.api.hap.Characteristic.On, false);
    }, AUTOMATION_SWITCH_RESET_MS);
  }
}

export const automationSwitch: ExtraSpec<AutomationSwitchMode> = {
  service: (hap) => hap.Service.Switch,
  subtype: 'automation-switch',
  suffix: ' Switch',
  off: 'off',
  // Kept in the safe mode: an unreadable config must not let "off" close the door.
  kept: 'open',
  create: (deps, mode) => new AutomationSwitch(deps, mode === 'open-close' ? 'open-close' : 'open'),
};
