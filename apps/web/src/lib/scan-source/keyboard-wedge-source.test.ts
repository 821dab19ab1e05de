import { afterEach, expect, test } from 'vitest';
import { WEDGE_MAX_KEY_GAP_MS, WEDGE_MIN_CODE_CHARS } from '@/config/constants.ts';
import { createKeyboardWedgeSource } from './keyboard-wedge-source.ts';

/** A clock the test moves by hand, in ms. */
let clock = 1_000;
const now = () => clock;

/** Real keydown events, as a keyboard (or a wedge scanner) sends them, dispatched on `target`. */
function press(target: EventTarget, key: string, options: { gapMs?: number; shiftKey?: boolean } = {}): KeyboardEvent {
  clock += options.gapMs ?? 5;
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, shiftKey: options.shiftKey });
  target.dispatchEvent(event);
  return event;
}

function typeBurst(target: EventTarget, text: string, gapMs = 5): KeyboardEvent {
  for (const key of text) press(target, key, { gapMs });
  return press(target, 'Enter', { gapMs });
}

async function startSource() {
  const codes: string[] = [];
  const source = createKeyboardWedgeSource({ now });
  expect(await source.start({ onCode: (code) => codes.push(code) })).toBe('active');
  return { source, codes };
}

afterEach(() => {
  document.body.innerHTML = '';
});

test('the burst rules of issue 10 item 7: at most 50 ms between keys, at least 4 characters', () => {
  expect(WEDGE_MAX_KEY_GAP_MS).toBe(50);
  expect(WEDGE_MIN_CODE_CHARS).toBe(4);
});

test('a fast burst ending in Enter with nothing focused is one code, and its Enter is not passed on', async () => {
  const { source, codes } = await startSource();
  const enter = typeBurst(document.body, 'GC-2026-0001');
  expect(codes).toEqual(['GC-2026-0001']);
  expect(enter.defaultPrevented).toBe(true);
  expect(source.kind).toBe('keyboard-wedge');
  expect(source.preview).toBe('none');
  await source.stop();
});

test('a burst aimed at a focused button is a code too, and Enter does not press the button', async () => {
  const button = document.createElement('button');
  let clicks = 0;
  button.addEventListener('click', () => clicks++);
  document.body.append(button);
  button.focus();
  const { source, codes } = await startSource();
  const enter = typeBurst(button, 'TICKET42');
  expect(codes).toEqual(['TICKET42']);
  expect(enter.defaultPrevented).toBe(true);
  expect(clicks).toBe(0);
  await source.stop();
});

test('each burst is reported, the same code as often as it is scanned', async () => {
  const { source, codes } = await startSource();
  typeBurst(document.body, 'GC-1111');
  clock += 1_000;
  typeBurst(document.body, 'GC-1111');
  expect(codes).toEqual(['GC-1111', 'GC-1111']);
  await source.stop();
});

test('Shift (capitals) does not break a burst', async () => {
  const { source, codes } = await startSource();
  for (const key of 'Gc-7') {
    if (key === 'G') press(document.body, 'Shift');
    press(document.body, key, { shiftKey: key === 'G' });
  }
  press(document.body, 'Enter');
  expect(codes).toEqual(['Gc-7']);
  await source.stop();
});

test('typing at a person’s pace (100 ms between keys) is not a code, and its Enter is left alone', async () => {
  const { source, codes } = await startSource();
  const enter = typeBurst(document.body, 'GC-2026-0001', 100);
  expect(codes).toEqual([]);
  expect(enter.defaultPrevented).toBe(false);
  await source.stop();
});

test('a slow pause inside the code starts a new burst: only the fast tail counts', async () => {
  const { source, codes } = await startSource();
  press(document.body, 'x');
  press(document.body, 'y');
  typeBurst(document.body, 'GC-99', 5);
  // 'GC-99' came 5 ms after 'y', so the whole of 'xyGC-99' was one burst.
  expect(codes).toEqual(['xyGC-99']);
  press(document.body, 'a', { gapMs: 500 });
  typeBurst(document.body, 'BCDE');
  expect(codes).toEqual(['xyGC-99', 'aBCDE']);
  await source.stop();
});

test('an Enter long after the last key is not the end of a burst', async () => {
  const { source, codes } = await startSource();
  for (const key of 'GC-1234') press(document.body, key);
  press(document.body, 'Enter', { gapMs: 200 });
  expect(codes).toEqual([]);
  await source.stop();
});

test('fewer than 4 characters is not a code', async () => {
  const { source, codes } = await startSource();
  typeBurst(document.body, 'GC1');
  expect(codes).toEqual([]);
  await source.stop();
});

test('another key (Backspace, Tab, Ctrl+V) breaks a burst', async () => {
  const { source, codes } = await startSource();
  for (const key of 'GC-12') press(document.body, key);
  press(document.body, 'Backspace');
  for (const key of 'GC') press(document.body, key);
  press(document.body, 'Enter');
  expect(codes).toEqual([]);
  await source.stop();
});

test('keys typed into a field are left to the field (SPEC §5 manual entry), also when fast', async () => {
  const input = document.createElement('input');
  const textarea = document.createElement('textarea');
  const editable = document.createElement('div');
  editable.setAttribute('contenteditable', 'true');
  document.body.append(input, textarea, editable);
  const { source, codes } = await startSource();
  for (const field of [input, textarea, editable]) {
    const enter = typeBurst(field, 'GC-2026-0001');
    expect(enter.defaultPrevented, field.tagName).toBe(false);
  }
  expect(codes).toEqual([]);
  await source.stop();
});

test('after stop nothing is reported; a second start listens once, not twice', async () => {
  const { source, codes } = await startSource();
  await source.stop();
  typeBurst(document.body, 'GC-0001');
  expect(codes).toEqual([]);
  const again: string[] = [];
  await source.start({ onCode: (code) => again.push(code) });
  await source.start({ onCode: (code) => again.push(code) });
  typeBurst(document.body, 'GC-0002');
  expect(again).toEqual(['GC-0002']);
  await source.stop();
  await source.stop();
});

test('a keyboard wedge has no torch', async () => {
  const { source } = await startSource();
  expect(source.hasTorch()).toBe(false);
  await expect(source.setTorch(true)).rejects.toThrow('no torch');
  await source.stop();
});

test('listens on the given target only', async () => {
  const area = document.createElement('div');
  const outside = document.createElement('div');
  document.body.append(area, outside);
  const codes: string[] = [];
  const source = createKeyboardWedgeSource({ now, target: area });
  await source.start({ onCode: (code) => codes.push(code) });
  typeBurst(outside, 'GC-OUT1');
  typeBurst(area, 'GC-IN01');
  expect(codes).toEqual(['GC-IN01']);
  await source.stop();
});
