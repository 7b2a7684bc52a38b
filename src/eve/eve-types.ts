// Eve's History service and characteristics, made from the running HAP (api.hap): Formats and Perms come from it, the
// classes extend its own, and DATA values are base64 text, so they work on HAP-NodeJS 0.x (Homebridge 1.11) and 2.x.
import type { Characteristic, HAP, Service, WithUUID } from 'homebridge';

/** Eve's UUIDs: E863Fxxx-079E-48FF-8F27-9C2605A29F52. */
export function eveUuid(short: string): string {
  return `E863F${short}-079E-48FF-8F27-9C2605A29F52`;
}

type CharacteristicClass = WithUUID<new () => Characteristic>;
/** What a characteristic is made with: its format and permissions, HAP's own values. */
type Props = ConstructorParameters<HAP['Characteristic']>[2];

export interface EveTypes {
  History: WithUUID<typeof Service>;
  HistoryStatus: CharacteristicClass;
  HistoryEntries: CharacteristicClass;
  HistoryRequest: CharacteristicClass;
  SetTime: CharacteristicClass;
  ResetTotal: CharacteristicClass;
  TimesOpened: CharacteristicClass;
  LastActivation: CharacteristicClass;
}

/** One set per HAP module: a service type HAP knows by class is made once, whatever the number of doors. */
const made = new WeakMap<HAP, EveTypes>();

/** The Eve types of this HAP. */
export function eveTypes(hap: HAP): EveTypes {
  const known = made.get(hap);
  if (known) return known;
  const { Formats, Perms } = hap;
  const characteristic = (name: string, short: string, format: Props['format'], perms: Props['perms']): CharacteristicClass => {
    const uuid = eveUuid(short);
    const Made = class extends hap.Characteristic {
      static readonly UUID = uuid;
      constructor() {
        super(name, uuid, { format, perms });
        this.value = this.getDefaultValue();
      }
    };
    return Made;
  };
  const [data, uint32] = [Formats.DATA, Formats.UINT32];
  const [read, write, notify, hidden] = [Perms.PAIRED_READ, Perms.PAIRED_WRITE, Perms.NOTIFY, Perms.HIDDEN];
  const HistoryStatus = characteristic('Eve History Status', '116', data, [read, notify, hidden]);
  const HistoryEntries = characteristic('Eve History Entries', '117', data, [read, notify, hidden]);
  const HistoryRequest = characteristic('Eve History Request', '11C', data, [write, hidden]);
  const SetTime = characteristic('Eve Set Time', '121', data, [write, hidden]);
  const ResetTotal = characteristic('Eve Reset Total', '112', uint32, [read, notify, write]);
  const historyUuid = eveUuid('007');
  const History = class extends hap.Service {
    static readonly UUID = historyUuid;
    constructor(displayName?: string, subtype?: string) {
      super(displayName, historyUuid, subtype);
      // The status first: its read marks a sweep of every characteristic (see eve-history.ts), the entries after it.
      for (const Type of [HistoryStatus, HistoryEntries, HistoryRequest, SetTime, ResetTotal]) this.addCharacteristic(Type);
    }
  };
  const types: EveTypes = {
    History,
    HistoryStatus,
    HistoryEntries,
    HistoryRequest,
    SetTime,
    ResetTotal,
    TimesOpened: characteristic('Eve Times Opened', '129', uint32, [read, notify]),
    LastActivation: characteristic('Eve Last Activation', '11A', uint32, [read, notify]),
  };
  made.set(hap, types);
  return types;
}
