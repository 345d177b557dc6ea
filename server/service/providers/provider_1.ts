import { SimulatedProvider } from './simulated';

/** provider_1: the Northeast and Chicago; Mon-Sat 07:00-15:00, 30-minute slots, 2 places, 07:00-08:00 priority. */
export const provider1 = new SimulatedProvider({
  slug: 'provider_1',
  name: 'Provider 1',
  area: [[10, 199], [600, 608]],
  hours: { 1: { open: 7, close: 15 }, 2: { open: 7, close: 15 }, 3: { open: 7, close: 15 }, 4: { open: 7, close: 15 }, 5: { open: 7, close: 15 }, 6: { open: 7, close: 15 } },
  slotMinutes: 30,
  price: 35,
  capacity: 2,
  priorityBefore: 8,
  priorityPrice: 60,
  priorityCapacity: 1,
  idPrefix: 'P1',
});
