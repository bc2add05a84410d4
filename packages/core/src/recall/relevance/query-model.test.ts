import { describe, expect, it } from 'vitest';
import type { Turn } from '../../model/units.js';
import { MemoryView } from '../view/memory-view.js';
import type { RecallFrame } from '../frame/recall-frame.js';
import { buildQueryModel, scoreTurns } from './query-model.js';

function turn(index: number, speaker: string, words: string): Turn {
  return {
    id: `turn-${index}`,
    kind: 'turn',
    scope: { userId: 'u', sessionId: `s${index}` },
    text: `${speaker}: ${words}`,
    speaker,
    index: 0,
    sources: [{ sessionId: `s${index}`, turnId: `s${index}:0` }],
    context: {
      session: { id: `s${index}`, start: `2024-07-0${index + 1}T10:00:00`, end: `2024-07-0${index + 1}T11:00:00` },
      mentionTimes: [],
      participants: [speaker],
      entities: [],
    },
  } as Turn;
}

/** A frame with the query alone: no participants, entities, window or aspects. */
const frame = (query: string): RecallFrame => ({ query, need: query, participants: [], entities: [], aspects: [], asksWhen: false, dropped: [] });
/** The query model's expansions as `term (where from)`. */
const expansionsOf = (query: string, view: MemoryView) => buildQueryModel(frame(query), view).expansions.map((expansion) => `${expansion.term} (${expansion.from})`);

describe('scoreTurns', () => {
  // One turn per session, so that no turn borrows a neighbour's words.
  const view = MemoryView.fromUnits([
    turn(0, 'Melanie', 'What type of music do you play?'),
    turn(1, 'Melanie', 'Music keeps me calm, I play every evening.'),
    turn(2, 'Caroline', 'What type of music do you play?'),
    turn(3, 'Caroline', 'The weather was lovely today.'),
  ]);

  it('tells a question put to the listener from a self-report', () => {
    expect([...view.asksOther]).toEqual([1, 0, 1, 0]);
    expect([...view.selfReport]).toEqual([0, 1, 0, 0]);
  });

  it('boosts the named speaker, but not their questions about the listener', () => {
    const terms = new Map([
      ['music', 1],
      ['plai', 1],
    ]);
    const boosted = scoreTurns(view, { terms, speaker: 'Melanie' });
    const plain = scoreTurns(view, { terms, speaker: undefined });
    // The same question by Melanie and by Caroline scores the same: Melanie asks about Caroline.
    expect(boosted.get(0)).toBeCloseTo(boosted.get(2) as number, 9);
    expect(boosted.get(0)).toBeCloseTo(plain.get(0) as number, 9);
    // Melanie's own statement is boosted.
    expect(boosted.get(1)).toBeGreaterThan(2.9 * (plain.get(1) as number));
  });
});

describe('buildQueryModel', () => {
  const view = MemoryView.fromUnits([
    turn(0, 'Melanie', 'I bought a leather belt and a holster.'),
    turn(1, 'Melanie', 'The eddy near the pier pulled my kayak around.'),
    turn(2, 'Melanie', 'My camera setup is a tripod and two lenses.'),
    turn(3, 'Melanie', 'The new jacket fits me well.'),
  ]);
  const hyponyms = (query: string) => expansionsOf(query, view);

  it('adds the kinds of a category the question asks for, when the memory names them', () => {
    // "fitting" (an accessory) shares its stem with "fits": not named, so not added.
    expect(hyponyms('What accessories does she wear?')).toEqual(['belt (hyponym of accessories)', 'holster (hyponym of accessories)']);
    expect(hyponyms('Which accessory would suit me?')).toEqual(['belt (hyponym of accessory)', 'holster (hyponym of accessory)']);
    expect(hyponyms('Was it the current?')).toEqual(['eddi (hyponym of current)']);
  });

  it('does not read a modifier or a verb as a category', () => {
    // "current" modifies "camera" here: the kinds of water current are no answer.
    expect(hyponyms('What would complement my current camera setup?')).toEqual([]);
  });
});

describe('buildQueryModel: a noun modifying an equipment noun', () => {
  const view = MemoryView.fromUnits([
    turn(0, 'Maya', 'I am upgrading the flash of my Sony camera.'),
    turn(1, 'Maya', 'My yoga class fits my current schedule.'),
    turn(2, 'Maya', 'We rehearsed at the dance studio all night.'),
    turn(3, 'Maya', 'I bought a skillet and a saucepan.'),
    turn(4, 'Maya', 'The weather was lovely today.'),
    // Kinds that "current" (current → ampere) and "dance" (dance → disco, ballroom) would add.
    turn(5, 'Maya', 'The charger draws one ampere; we went to a disco in a ballroom.'),
  ]);
  const kinds = (query: string) => expansionsOf(query, view);

  it('asks for the kinds WordNet lists under the modifier\u2019s two-word nouns', () => {
    expect(kinds('Can you suggest something to complement my photography setup?')).toEqual([
      'camera (kind of photographic camera, for "photography setup")',
      'flash (kind of photographic equipment, for "photography setup")',
    ]);
    expect(kinds('What should I add to my cooking gear?')).toEqual(['skillet (kind of cooking pan, for "cooking gear")', 'saucepan (kind of cooking pan, for "cooking gear")']);
  });

  it('finds a turn that shares no word with the question', () => {
    const query = 'Can you suggest something to complement my photography setup?';
    const scores = scoreTurns(view, buildQueryModel(frame(query), view));
    expect(scores.get(0)).toBeGreaterThan(0);
    expect(Math.max(...[...scores].filter(([position]) => position !== 0).map(([, score]) => score), 0)).toBeLessThan(scores.get(0) as number);
  });

  it('leaves adjectives and heads that are no equipment alone', () => {
    // "current" is an adjective; a studio is a room, not equipment.
    expect(kinds('Does yoga fit my current setup?')).toEqual([]);
    expect(kinds('When did she rehearse at the dance studio?')).toEqual([]);
    expect(kinds('What goes with my dance kit?')).toEqual(['ballroom (kind of dance hall, for "dance kit")', 'disco (kind of dance hall, for "dance kit")']);
  });
});
