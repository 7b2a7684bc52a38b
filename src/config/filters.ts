// The four id filters that split an account over child bridges. One that cannot be read must not widen what Home may
// open: an exclude list keeps what it can read and the rest fails closed; an include list hides nothing on a guess.
import { LOCK_ALL } from './fail-closed.js';
import type { Findings, Issue } from './findings.js';
import { addSpelling, idProblem, listing, readIdList } from './values.js';

export type FilterKey = 'includeDeviceIds' | 'excludeDeviceIds' | 'includeDoorIds' | 'excludeDoorIds';

/** What a filter that cannot be read, or holds an element that cannot be, leaves in force (said after its problem). */
export const FILTERS: Record<FilterKey, { kind: 'include' | 'exclude'; of: 'door' | 'device'; unnamed: string }> = {
  includeDeviceIds: { kind: 'include', of: 'device', unnamed: 'every door of a controller it does not name is read-only' },
  excludeDeviceIds: { kind: 'exclude', of: 'device', unnamed: 'every door shown is read-only' },
  includeDoorIds: { kind: 'include', of: 'door', unnamed: 'every door it does not name is read-only' },
  excludeDoorIds: { kind: 'exclude', of: 'door', unnamed: 'every door shown is read-only' },
};

export const isFilterKey = (key: string): key is FilterKey => key in FILTERS;

/**
 * A filter, element by element (readIdList): ids compared as the service means them, a list written as one text split
 * when every part is an id. An element that cannot be read fails closed: an exclude list keeps its readable ids and every
 * door shown becomes read-only; an include list hides nothing (it might hide the very door the bad element named) and
 * the doors it does not name become read-only. A number too large to hold exactly makes read-only only the doors (or
 * controllers' doors) whose id could be that number.
 */
export function readFilter(key: FilterKey, value: unknown, findings: Findings): string[] | undefined {
  const reading = readIdList(value);
  for (const [id, written] of reading.spellings) for (const each of written) addSpelling(findings.spellings, id, each);
  if (reading.ids.length === 0 && reading.bad.length === 0 && reading.numbers.length === 0) return undefined;
  const { kind, of, unnamed } = FILTERS[key];
  const notAList = [{ path: [key], message: 'must be a list of ids' }];
  if (reading.lone && reading.bad.length > 0) {
    // Not even one id: no door can be placed, so none may be opened.
    findings.add(
      notAList,
      `${key} must be a list of ids ([ … ]); this filter ${kind === 'exclude' ? 'keeps' : 'leaves'} no door out, and ${LOCK_ALL}`,
    );
    findings.lock.all = true;
    return [];
  }
  if (reading.lone) {
    const what =
      reading.ids.length === 1 ? 'the one id it holds is used' : `it is read as the list of the ${reading.ids.length} ids it holds`;
    findings.add(notAList, `${key} must be a list of ids ([ … ]); ${what}`);
  }
  if (reading.bad.length > 0) {
    const issues: Issue[] = reading.bad.map((index) => ({ path: [key, index], message: idProblem((value as unknown[])[index]) }));
    const paths = issues.map((issue) => issue.path.map(String).join('.'));
    const must = issues.length === 1 ? (issues[0]?.message ?? '') : 'must be ids (text or a number)';
    const then =
      kind === 'exclude'
        ? `the other ids still apply, and ${unnamed} until it is fixed`
        : `this filter leaves no door out until it is fixed, and ${unnamed}`;
    findings.add(issues, `${listing(paths)} ${must}; ${then}`, [key]);
    if (kind === 'exclude') {
      findings.lock.all = true;
      return reading.ids;
    }
    findings.lock[of === 'door' ? 'openableDoorIds' : 'openableDeviceIds'] = reading.ids;
    return [];
  }
  for (const { index, number } of reading.numbers) {
    const at = reading.lone ? key : `${key}.${index}`;
    const issues = [{ path: reading.lone ? [key] : [key, index], message: idProblem(number) }];
    const lead = `${at} ${idProblem(number)}`;
    if (kind === 'exclude') {
      // Only the doors the number could be: a door whose id is a UUID is not what it meant.
      findings.lockNumber(of === 'door' ? 'doorNumbers' : 'deviceNumbers', number);
      const whose = of === 'door' ? 'a door whose id reads as' : 'the doors of a controller whose id reads as';
      findings.add(issues, `${lead}; ${whose} ${String(number)} ${of === 'door' ? 'stays' : 'stay'} read-only until it is fixed`, [key]);
    } else {
      findings.lock[of === 'door' ? 'openableDoorIds' : 'openableDeviceIds'] = reading.ids;
      findings.add(issues, `${lead}; this filter leaves no door out until it is fixed, and ${unnamed}`, [key]);
      return [];
    }
  }
  return reading.ids;
}
