import type { Conversation } from '../conversation.js';

/**
 * A small built-in chat (three sessions, 28 messages) that a long-running service can ingest
 * once at start into a throwaway store, so that the first real `add()` runs warm code: the same
 * code paths a service has compiled after its first ingest. Written for that purpose (not taken
 * from any benchmark): varied phrasing — relative and absolute times, names and nicknames,
 * places, organisations, kin, pets, jobs, moves, hobbies, questions, an image caption, curly
 * apostrophes — so that the distiller's branches are all taken at least once.
 */
export const warmUpConversation: Conversation = {
  id: 'engram-warm-up',
  speakers: ['Nora Lind', 'Tomas'],
  sessions: [
    {
      id: 'warm-up-1',
      date: '2021-04-12T19:05:00',
      turns: [
        { id: 'w1:1', speaker: 'Nora Lind', text: 'Hi Tom! Long time no see. How was your weekend?' },
        { id: 'w1:2', speaker: 'Tomas', text: "Hey Nora! It was great, thanks. I took my dog Biscuit hiking near Lake Tahoe last Saturday and we camped for two nights." },
        { id: 'w1:3', speaker: 'Nora Lind', text: 'That sounds amazing! I started a new job at Acme Robotics two weeks ago. I work as a software engineer there now.' },
        { id: 'w1:4', speaker: 'Tomas', text: 'Congrats!! Do you like your team? My sister Clara works at a hospital in Denver, she is a nurse.' },
        { id: 'w1:5', speaker: 'Nora Lind', text: "I love it so far. The people are kind and I'm learning a lot. We are launching a product next month." },
        { id: 'w1:6', speaker: 'Tomas', text: 'Nice. Here is a photo from the trip.', imageCaption: 'a photo of a dog sitting next to a tent by a lake' },
        { id: 'w1:7', speaker: 'Nora Lind', text: 'Biscuit looks so happy! Is he a golden retriever?' },
        { id: 'w1:8', speaker: 'Tomas', text: "Yes, he is three years old. We adopted him in 2018, the summer before I moved to Portland." },
        { id: 'w1:9', speaker: 'Nora Lind', text: 'I have been painting a lot lately, mostly landscapes and sunsets. It helps me relax after work.' },
        { id: 'w1:10', speaker: 'Tomas', text: 'You should show me some of your paintings next time we meet.' },
      ],
    },
    {
      id: 'warm-up-2',
      date: '2021-06-03T08:30:00',
      turns: [
        { id: 'w2:1', speaker: 'Tomas', text: 'Morning Nora! How did the product launch go last month?' },
        { id: 'w2:2', speaker: 'Nora Lind', text: "It went really well. Our CEO thanked the whole team on Friday, and yesterday we celebrated at a little Italian restaurant downtown." },
        { id: 'w2:3', speaker: 'Tomas', text: "That’s awesome. I’ve signed up for a pottery class at the community center; it starts next week." },
        { id: 'w2:4', speaker: 'Nora Lind', text: 'Pottery! My mom used to make bowls and vases when I was a kid. She would love that.' },
        { id: 'w2:5', speaker: 'Tomas', text: 'Maybe she can give me some tips. Where does she live these days?' },
        { id: 'w2:6', speaker: 'Nora Lind', text: 'She lives in Seattle with my dad. They visited me a few days ago and we went to the art museum together.' },
        { id: 'w2:7', speaker: 'Tomas', text: 'Did you see the new exhibition about modern photography?' },
        { id: 'w2:8', speaker: 'Nora Lind', text: "We did, it was wonderful. By the way, I'm thinking about running a half marathon in the fall." },
        { id: 'w2:9', speaker: 'Tomas', text: "Go for it! I ran one in 2019 and finished in two hours. I'd be happy to train with you on weekends." },
      ],
    },
    {
      id: 'warm-up-3',
      date: '2021-09-20T17:45:00',
      turns: [
        { id: 'w3:1', speaker: 'Nora Lind', text: 'Hey Tom, guess what? I moved to Seattle last week to be closer to my parents.' },
        { id: 'w3:2', speaker: 'Tomas', text: 'Wow, big change! How is the new apartment?' },
        { id: 'w3:3', speaker: 'Nora Lind', text: 'It is small but cozy, with a view of the mountains. I still work for Acme Robotics, remotely now.' },
        { id: 'w3:4', speaker: 'Tomas', text: 'The pottery class is going well. Last Tuesday I made my first mug, and my teacher Mrs. Alvarez said it was good.' },
        { id: 'w3:5', speaker: 'Nora Lind', text: 'I am proud of you! Are you still running on weekends?' },
        { id: 'w3:6', speaker: 'Tomas', text: 'Every Sunday morning. Biscuit comes with me, he loves the park by the river.' },
        { id: 'w3:7', speaker: 'Nora Lind', text: 'The half marathon is in October, on the 17th. I have been training for three months.' },
        { id: 'w3:8', speaker: 'Tomas', text: "I'll fly to Seattle that weekend to cheer for you. Let's get dinner afterwards!" },
        { id: 'w3:9', speaker: 'Nora Lind', text: "Deal! Thanks, Tom. Talk soon." },
      ],
    },
  ],
};
