import { SimulatedProvider } from './simulated';

const day = { open: 9, close: 18 };

/** provider_4: Mid-Atlantic, Midwest and Puerto Rico; Mon-Fri 09:00-18:00, 45-minute slots, 1 place, no priority. */
export const provider4 = new SimulatedProvider({
  slug: 'provider_4',
  name: 'Provider 4',
  area: [[6, 9], [200, 299], [400, 599]],
  hours: { 1: day, 2: day, 3: day, 4: day, 5: day },
  slotMinutes: 45,
  price: 25,
  capacity: 1,
  idPrefix: 'P4',
});
