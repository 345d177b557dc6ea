import { SimulatedProvider } from './simulated';

/** provider_2: the South, Texas and Chicago; Mon-Fri 08:00-17:00, 60-minute slots, 1 place, 08:00 priority. */
export const provider2 = new SimulatedProvider({
  slug: 'provider_2',
  name: 'Provider 2',
  area: [[300, 399], [600, 608], [700, 799], [885, 885]],
  hours: { 1: { open: 8, close: 17 }, 2: { open: 8, close: 17 }, 3: { open: 8, close: 17 }, 4: { open: 8, close: 17 }, 5: { open: 8, close: 17 } },
  slotMinutes: 60,
  price: 30,
  capacity: 1,
  priorityBefore: 9,
  priorityPrice: 55,
  idPrefix: 'P2',
});
