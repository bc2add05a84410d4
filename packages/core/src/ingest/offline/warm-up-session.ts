import type { ConversationSession } from '../conversation.js';

/**
 * One more session for the reader worker to read when it starts, after the demo's conversation
 * (see `warmUpRequests`), written by the Engram team. The demo's chat is short and tidy; real chat
 * also has what this session has — a third person referred to as "she" and "his", a possessive
 * before a name, a message over two lines, lower-case words that are also names ("will", "bill",
 * "grace"), numbers, a question without its mark, abbreviations and rarer words — and each such construction met
 * for the first time after the reader's code was optimised throws that code away. Reading it once
 * at start costs the worker a few milliseconds; its answers are dropped.
 */
export const warmUpSession: ConversationSession = {
  id: 'warm-up',
  date: '2024-11-16T11:00:00',
  turns: [
    { id: 'w:1', speaker: 'Maya', text: 'My neighbour Sarah invited me to her pottery class. She says her students made 40 bowls, mugs, vases etc. in October!\nI will go with her on Friday.' },
    { id: 'w:2', speaker: 'Tom', text: "Sarah's studio is the one next to the old bank, right? I paid the bill for a workshop there once" },
    { id: 'w:3', speaker: 'Maya', text: 'Yes, and Mark from the lab joined too. His wife says grace before every dinner, which I find sweet.' },
    { id: 'w:4', speaker: 'Tom', text: "Does Mark still play drums in his band? My cousin's kids want lessons, they're 8 and 11 now." },
    { id: 'w:5', speaker: 'Maya', text: 'He does! They rehearse twice a week near the harbour. Ask him after the gig on the 23rd.' },
    { id: 'w:6', speaker: 'Tom', text: 'Will do, unless the bakery keeps me busy. Anyway, gotta run: the sourdough starter needs feeding, lol' },
  ],
};
