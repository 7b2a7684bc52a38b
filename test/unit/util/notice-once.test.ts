// The notice-once helper: a line when a condition starts, again only when it changes or comes back, and one when it ends.
import { describe, expect, it } from 'vitest';

import { NoticeOnce, NoticeOnceEach } from '../../../src/util/notice-once.js';

function recorder() {
  const said: string[] = [];
  return { said, say: (line: string) => () => said.push(line) };
}

describe('NoticeOnce', () => {
  it('says a condition once while it lasts, however often it is found', () => {
    const r = recorder();
    const notice = new NoticeOnce();
    notice.holds(r.say('started'));
    notice.holds(r.say('started'));
    notice.holds(r.say('started'));
    expect(r.said).toEqual(['started']);
  });

  it('says the end once, only after a start, and says the next start again', () => {
    const r = recorder();
    const notice = new NoticeOnce();
    notice.ended(r.say('ended'));
    notice.holds(r.say('started'));
    notice.ended(r.say('ended'));
    notice.ended(r.say('ended'));
    notice.holds(r.say('started again'));
    expect(r.said).toEqual(['started', 'ended', 'started again']);
  });

  it('ends silently when given no end line, and re-arms all the same', () => {
    const r = recorder();
    const notice = new NoticeOnce();
    notice.holds(r.say('started'));
    notice.ended();
    notice.holds(r.say('started again'));
    expect(r.said).toEqual(['started', 'started again']);
  });

  it('says it again when what it is about changes, without an end line between', () => {
    const r = recorder();
    const notice = new NoticeOnce();
    notice.holds(r.say('a'), 'a');
    notice.holds(r.say('a'), 'a');
    notice.holds(r.say('b'), 'b');
    notice.holds(r.say('a'), 'a');
    expect(r.said).toEqual(['a', 'b', 'a']);
  });
});

describe('NoticeOnceEach', () => {
  it('says each condition once while it lasts, and again when it comes back after a call without it', () => {
    const said: string[] = [];
    const notices = new NoticeOnceEach();
    const round = (keys: string[]) =>
      notices.update(
        keys,
        (key) => key,
        (key) => said.push(key),
      );
    round(['x', 'y']);
    round(['x', 'y']);
    round(['y', 'z']);
    round(['x', 'y', 'z']);
    expect(said).toEqual(['x', 'y', 'z', 'x']);
  });

  it('keys conditions by keyOf, so equal keys are one condition', () => {
    const said: string[] = [];
    const notices = new NoticeOnceEach();
    notices.update(
      [{ id: 1, text: 'first' }],
      (c) => String(c.id),
      (c) => said.push(c.text),
    );
    notices.update(
      [{ id: 1, text: 'same id, new text' }],
      (c) => String(c.id),
      (c) => said.push(c.text),
    );
    expect(said).toEqual(['first']);
  });
});
