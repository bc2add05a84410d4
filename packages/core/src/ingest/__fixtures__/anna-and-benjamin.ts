import type { Conversation } from '../conversation.js';

/**
 * A four-session chat over eight months, written for the ingest tests: relative dates, pronouns,
 * a nickname ("Ben" for Benjamin), a changed home (Boston → Seattle), a hobby that recurs in
 * several sessions (pottery) and a pet.
 */
export const annaAndBenjamin: Conversation = {
  id: 'anna-benjamin',
  speakers: ['Anna', 'Benjamin'],
  sessions: [
    {
      id: 's1',
      date: '2023-03-10T10:00:00',
      turns: [
        { id: 's1:1', speaker: 'Anna', text: 'Hi Ben! I moved to Boston last month with my husband.' },
        { id: 's1:2', speaker: 'Benjamin', text: 'Wow, that is big news, Anna! Do you like it there?' },
        { id: 's1:3', speaker: 'Anna', text: "I love it. I'm really into pottery now. I went to my first pottery class yesterday and made a bowl." },
        { id: 's1:4', speaker: 'Benjamin', text: 'My sister does pottery too. She has a studio in Cambridge.' },
      ],
    },
    {
      id: 's2',
      date: '2023-05-20T18:30:00',
      turns: [
        { id: 's2:1', speaker: 'Benjamin', text: 'Hey Anna, how is the pottery going?' },
        { id: 's2:2', speaker: 'Anna', text: 'Great! I finished a pottery vase last week and glazed it blue.' },
        { id: 's2:3', speaker: 'Benjamin', text: 'I adopted a puppy named Rex last Saturday. He loves the park.' },
        { id: 's2:4', speaker: 'Anna', text: 'Aww, I love dogs! Send me a photo of Rex.' },
      ],
    },
    {
      id: 's3',
      date: '2023-08-02T09:15:00',
      turns: [
        { id: 's3:1', speaker: 'Anna', text: 'Big news: I moved to Seattle two weeks ago for a new job. I work as a nurse now.' },
        { id: 's3:2', speaker: 'Benjamin', text: 'Congrats! Are you still doing pottery?' },
        { id: 's3:3', speaker: 'Anna', text: "Yes, I'm into pottery more than ever. I joined a pottery studio downtown." },
      ],
    },
    {
      id: 's4',
      date: '2023-11-15T20:00:00',
      turns: [
        { id: 's4:1', speaker: 'Benjamin', text: 'Rex turned one yesterday! We threw a little party at the park.' },
        { id: 's4:2', speaker: 'Anna', text: 'Happy birthday Rex! I am going to a pottery exhibition next week.' },
      ],
    },
  ],
};
