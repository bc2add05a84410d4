/**
 * Personal aspects a question can ask about, with the question words that signal each. The
 * offline distiller files facts under the same aspect names, so `query_personal_aspect` can meet
 * them. These are general English cue words, not words of any data set.
 */
export const aspectCues: Readonly<Record<string, ReadonlyArray<string>>> = {
  hobby: ['hobby', 'hobbies', 'activity', 'activities', 'fun', 'enjoy', 'enjoys', 'pastime', 'destress', 'de-stress', 'relax', 'unwind', 'interest', 'interests', 'passion', 'sport', 'sports'],
  job: ['job', 'jobs', 'work', 'works', 'career', 'profession', 'occupation', 'employer', 'business', 'company'],
  family: ['family', 'kids', 'children', 'child', 'son', 'daughter', 'husband', 'wife', 'partner', 'parents', 'mother', 'father', 'mom', 'dad', 'sister', 'brother', 'siblings'],
  pet: ['pet', 'pets', 'dog', 'dogs', 'cat', 'cats', 'puppy', 'kitten', 'turtle', 'turtles'],
  home: ['live', 'lives', 'home', 'house', 'apartment', 'city', 'move', 'moved', 'hometown', 'neighborhood'],
  preference: ['favorite', 'favourite', 'prefer', 'prefers', 'like', 'likes', 'love', 'loves'],
  goal: ['goal', 'goals', 'plan', 'plans', 'dream', 'dreams', 'hope', 'hopes', 'aspire', 'want', 'wants'],
  health: ['health', 'ill', 'illness', 'sick', 'injury', 'allergic', 'allergy', 'allergies', 'condition', 'diagnosed'],
  education: ['study', 'studies', 'studying', 'school', 'degree', 'college', 'university', 'class', 'classes', 'course', 'major'],
  relationship: ['relationship', 'single', 'married', 'dating', 'boyfriend', 'girlfriend', 'divorced'],
  identity: ['identity', 'identify', 'identifies', 'nationality', 'religion', 'age', 'old'],
};

/** Aspects signalled by the words of a question (lower-cased words). */
export function aspectsOf(words: ReadonlyArray<string>): Array<{ aspect: string; word: string }> {
  const out: Array<{ aspect: string; word: string }> = [];
  for (const [aspect, cues] of Object.entries(aspectCues)) {
    const word = words.find((candidate) => cues.includes(candidate));
    if (word !== undefined) out.push({ aspect, word });
  }
  return out;
}

/** Aspect words in the plural: a question using one asks for every item ("What activities …?"). */
const pluralCues: ReadonlySet<string> = new Set(['hobbies', 'activities', 'pastimes', 'interests', 'passions', 'sports', 'jobs', 'pets', 'goals', 'plans', 'dreams', 'allergies', 'classes']);

/** Whether an aspect word of a question is a plural that asks for a list. */
export function isPluralCue(word: string): boolean {
  return pluralCues.has(word.toLowerCase());
}
