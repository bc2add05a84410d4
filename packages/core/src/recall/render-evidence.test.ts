import { describe, expect, it } from 'vitest';
import type { TimeInterval } from '../model/time.js';
import type { Turn } from '../model/units.js';
import { renderEvidence } from './render-evidence.js';

function turn(text: string, eventTime?: TimeInterval): Turn {
  return {
    id: 'turn-1',
    kind: 'turn',
    scope: { userId: 'u', sessionId: 's1' },
    text,
    speaker: 'Maya',
    index: 0,
    sources: [{ sessionId: 's1', turnId: 's1:0' }],
    context: {
      session: { id: 's1', start: '2024-07-08T10:00:00', end: '2024-07-08T11:00:00' },
      mentionTimes: [],
      participants: ['Maya'],
      entities: [],
      ...(eventTime ? { eventTime } : {}),
    },
  } as Turn;
}

describe('renderEvidence', () => {
  it('writes the date said as a readable day', () => {
    expect(renderEvidence({ unit: turn('Maya: hi') })).toBe('[8 July 2024] Maya: hi');
  });

  it('adds the event time only when it differs, leaving out the repeated year', () => {
    const day = (start: string, end: string, granularity: TimeInterval['granularity']) => ({ start, end, granularity }) as TimeInterval;
    expect(renderEvidence({ unit: turn('Maya: x', day('2024-07-08T00:00:00', '2024-07-08T23:59:59', 'day')) })).toBe('[8 July 2024] Maya: x');
    expect(renderEvidence({ unit: turn('Maya: x', day('2024-07-07T00:00:00', '2024-07-07T23:59:59', 'day')) })).toBe('[8 July 2024; event 7 July] Maya: x');
    expect(renderEvidence({ unit: turn('Maya: x', day('2024-06-24T00:00:00', '2024-06-30T23:59:59', 'week')) })).toBe('[8 July 2024; event 24-30 June] Maya: x');
    expect(renderEvidence({ unit: turn('Maya: x', day('2024-06-28T00:00:00', '2024-07-04T23:59:59', 'week')) })).toBe('[8 July 2024; event 28 June-4 July] Maya: x');
    expect(renderEvidence({ unit: turn('Maya: x', day('2023-03-01T00:00:00', '2023-03-31T23:59:59', 'month')) })).toBe('[8 July 2024; event March 2023] Maya: x');
    expect(renderEvidence({ unit: turn('Maya: x', day('2022-01-01T00:00:00', '2022-12-31T23:59:59', 'year')) })).toBe('[8 July 2024; event 2022] Maya: x');
  });

  it('writes a shared image compactly', () => {
    expect(renderEvidence({ unit: turn('Maya: look [shared an image: a photo of a cat]') })).toBe('[8 July 2024] Maya: look [image: a photo of a cat]');
  });
});
