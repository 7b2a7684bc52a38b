// Doors Siri cannot tell apart: names that are the same once case, spaces and punctuation are set aside.

export interface NamedDoor {
  id: string;
  name: string;
}

/** What Siri hears of a name: letters and digits only, in lower case. */
export function spokenForm(name: string): string {
  return name.toLocaleLowerCase('en').replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Every pair of doors whose names sound alike, in the order the doors were given. */
export function soundAlikePairs(doors: readonly NamedDoor[]): [NamedDoor, NamedDoor][] {
  const pairs: [NamedDoor, NamedDoor][] = [];
  const byForm = new Map<string, NamedDoor[]>();
  for (const door of doors) {
    const form = spokenForm(door.name);
    const alike = byForm.get(form) ?? [];
    for (const earlier of alike) {
      pairs.push([earlier, door]);
    }
    alike.push(door);
    byForm.set(form, alike);
  }
  return pairs;
}
