import type { Conversation } from '../ingest/conversation.js';

/**
 * A small conversation written by the Engram team for the demo: two friends over five sessions and
 * nine months — relative dates ("last weekend", "two weeks ago"), a changed fact (Maya moves from
 * Lisbon to Boston), recurring topics (climbing, the bakery, the dog) and a question that needs two
 * sessions to answer.
 */
export const sampleConversation: Conversation = {
  id: 'maya-and-tom',
  speakers: ['Maya', 'Tom'],
  sessions: [
    {
      id: 'session-1',
      date: '2024-01-14T18:20:00',
      turns: [
        { id: 's1:1', speaker: 'Maya', text: 'Hey Tom! I finally signed up for the bouldering gym near my flat in Lisbon last weekend.' },
        { id: 's1:2', speaker: 'Tom', text: 'Nice! How was the first climb?' },
        { id: 's1:3', speaker: 'Maya', text: 'Exhausting, my forearms were on fire. The coach said I have good footwork though.' },
        { id: 's1:4', speaker: 'Tom', text: "I've been baking sourdough every morning since I quit my job at the bank two weeks ago." },
        { id: 's1:5', speaker: 'Maya', text: 'You quit the bank? That is huge. Are you going to open that bakery you always talk about?' },
        { id: 's1:6', speaker: 'Tom', text: 'That is the plan. I want a tiny bakery with a wood-fired oven by the end of the year.' },
      ],
    },
    {
      id: 'session-2',
      date: '2024-03-02T10:05:00',
      turns: [
        { id: 's2:1', speaker: 'Tom', text: 'Maya! I signed the lease for the bakery yesterday. It is on Elm Street.' },
        { id: 's2:2', speaker: 'Maya', text: 'Congratulations! I have news too: I adopted a dog from the shelter, a beagle named Pepper.' },
        { id: 's2:3', speaker: 'Tom', text: 'Pepper! Does she get along with your climbing schedule?' },
        { id: 's2:4', speaker: 'Maya', text: 'She comes to the park after my Tuesday climbing sessions. She loves chasing pigeons.' },
        { id: 's2:5', speaker: 'Tom', text: 'I am allergic to dogs, so I will wave at her from a distance.' },
      ],
    },
    {
      id: 'session-3',
      date: '2024-05-19T20:40:00',
      turns: [
        { id: 's3:1', speaker: 'Maya', text: 'Big change: I got the research job at the lab, so I am moving to Boston next month.' },
        { id: 's3:2', speaker: 'Tom', text: 'Boston! What about Pepper?' },
        { id: 's3:3', speaker: 'Maya', text: 'She is coming with me, of course. I already found an apartment with a small yard.' },
        { id: 's3:4', speaker: 'Tom', text: 'The bakery opened three days ago. We sold out of croissants by noon.' },
        { id: 's3:5', speaker: 'Maya', text: 'I knew it would work. Save me a croissant when I visit.' },
      ],
    },
    {
      id: 'session-4',
      date: '2024-07-08T09:15:00',
      turns: [
        { id: 's4:1', speaker: 'Maya', text: 'I moved to Boston two weeks ago. The lab is great and there is a climbing wall at the university.' },
        { id: 's4:2', speaker: 'Tom', text: 'Have you tried it yet?' },
        { id: 's4:3', speaker: 'Maya', text: 'Yes, last Saturday I climbed my first V4 there. My old coach in Lisbon would be proud.' },
        { id: 's4:4', speaker: 'Tom', text: 'Speaking of proud, a food blogger reviewed the bakery last week and called our sourdough the best in town.' },
      ],
    },
    {
      id: 'session-5',
      date: '2024-10-21T17:30:00',
      turns: [
        { id: 's5:1', speaker: 'Tom', text: 'I hired my first employee, Lena, to help with the morning bake.' },
        { id: 's5:2', speaker: 'Maya', text: 'That is great. Pepper and I went hiking in the White Mountains last weekend.' },
        { id: 's5:3', speaker: 'Tom', text: 'Do you still climb every Tuesday?' },
        { id: 's5:4', speaker: 'Maya', text: 'Every Tuesday and Thursday now. I entered a bouldering competition in December.' },
      ],
    },
  ],
};

/** Questions the demo asks of the sample conversation. */
export const sampleQuestions: ReadonlyArray<string> = [
  'Where does Maya live now?',
  'When did Tom sign the lease for the bakery?',
  'What did Maya do after moving to Boston, and where did she climb before?',
];
