import { beforeAll, describe, expect, it } from 'vitest';
import { findFacts } from './fact-patterns.js';
import { loadLexicon, type Lexicon } from './lexicon.js';
import { tagText } from './tagged-text.js';

let lexicon: Lexicon;
beforeAll(async () => {
  lexicon = await loadLexicon();
});

function facts(text: string): string[] {
  const tagged = tagText(text, lexicon);
  return findFacts(tagged.tokens, tagged.sentences, lexicon).map((fact) => `${fact.aspect}=${fact.key}`);
}

describe('findFacts', () => {
  it('reads home, origin, job and workplace', () => {
    expect(facts('I moved to New York City last month.')).toEqual(['home=new york city']);
    expect(facts('I live in Boston now.')).toEqual(['home=boston']);
    expect(facts('I moved from Sweden 4 years ago.')).toEqual(['origin=sweden']);
    expect(facts('I work as a nurse at the hospital.')).toEqual(['job=nurse']);
    expect(facts("I'm a teacher.")).toEqual(['job=teacher']);
    expect(facts('I work at Google.')).toEqual(['workplace=google']);
  });

  it('reads hobbies as lists and skips light verbs', () => {
    expect(facts('I love painting and hiking!')).toEqual(['hobby=painting', 'hobby=hiking']);
    expect(facts("I'm into pottery these days.")).toEqual(['hobby=pottery']);
    expect(facts('I play the guitar.')).toEqual(['hobby=playing guitar']);
    expect(facts('I love looking.')).toEqual([]);
  });

  it('reads activities the speaker goes out to do, alone or with others', () => {
    expect(facts('We went camping with the kids two weekends ago.')).toEqual(['hobby=camping']);
    expect(facts("I'm off to go fishing with the neighbours.")).toEqual(['hobby=fishing']);
    expect(facts('We love painting together lately.')).toEqual(['hobby=painting']);
    expect(facts('I went looking for you.')).toEqual([]);
    expect(facts('Did you go hiking?')).toEqual([]);
  });

  it('reads family and pets by role, keeping a name out of the value', () => {
    expect(facts('My husband John cooked dinner.')).toEqual(['family=husband']);
    expect(facts('I have three kids.')).toEqual(['family=child']);
    expect(facts('My dog Max is cute. I adopted two cats.')).toEqual(['pet=dog', 'pet=cat']);
    expect(facts("My daughter's birthday is soon.")).toEqual([]);
  });

  it('reads identity, relationship, preferences, goals, education and health', () => {
    expect(facts("I'm transgender and I'm single.")).toEqual(['identity=transgender', 'relationship=single']);
    expect(facts('My favorite book is Charlotte\'s Web.')).toEqual(["preference=favorite book: charlotte's web"]);
    expect(facts('I want to become a counselor someday.')).toEqual(['goal=become a counselor']);
    expect(facts("I'm studying psychology at college.")).toEqual(['education=psychology']);
    expect(facts("I'm allergic to cats.")).toEqual(['health=allergic to cat']);
  });

  it('skips questions, conditionals and negations', () => {
    expect(facts('Do you live in Boston?')).toEqual([]);
    expect(facts('If I moved to Boston, I would be happy.')).toEqual([]);
    expect(facts("I don't live in Boston anymore.")).toEqual([]);
    expect(facts("I'm so excited about it.")).toEqual([]);
  });
});
