import { describe, expect, it } from 'vitest';
import { segmentEpisodes, type SegmentTurn } from './segment.js';

const turn = (speaker: string, stems: string[], options: { asks?: boolean; words?: number } = {}): SegmentTurn => ({
  speaker,
  stems: new Set(stems),
  asks: options.asks ?? false,
  words: options.words ?? 12,
});

describe('segmentEpisodes', () => {
  it('keeps turns on one subject together and splits on a topic shift', () => {
    const turns = [
      turn('A', ['pottery', 'class']),
      turn('B', ['pottery', 'vase']),
      turn('A', ['puppy', 'park']),
      turn('B', ['puppy', 'walk']),
    ];
    expect(segmentEpisodes(turns)).toEqual([[0, 2], [2, 4]]);
  });

  it('attaches short reactions and the answer to a lone question', () => {
    const turns = [turn('A', ['job'], { asks: true }), turn('B', ['nurse', 'hospital']), turn('A', [], { words: 2 }), turn('B', ['garden'])];
    expect(segmentEpisodes(turns)).toEqual([[0, 3], [3, 4]]);
  });

  it('never makes an episode longer than maxTurns', () => {
    const turns = Array.from({ length: 7 }, (_, index) => turn(index % 2 ? 'B' : 'A', ['pottery']));
    expect(segmentEpisodes(turns, { maxTurns: 3 })).toEqual([[0, 3], [3, 6], [6, 7]]);
  });

  it('starts a new episode rather than pass maxWords', () => {
    const turns = [turn('A', ['pottery'], { words: 200 }), turn('B', ['pottery'], { words: 150 }), turn('A', ['pottery'], { words: 20 })];
    expect(segmentEpisodes(turns, { maxWords: 300 })).toEqual([[0, 1], [1, 3]]);
  });

  it('returns nothing for no turns', () => {
    expect(segmentEpisodes([])).toEqual([]);
  });
});
