import { SimulatedProvider } from './simulated';

const day = { open: 6, close: 12 };

/** provider_3: the West, Hawaii and Alaska; every day 06:00-12:00, 30-minute slots, 3 places, 06:00-07:00 priority. */
export const provider3 = new SimulatedProvider({
  slug: 'provider_3',
  name: 'Provider 3',
  area: [[800, 884], [889, 999]],
  hours: { 1: day, 2: day, 3: day, 4: day, 5: day, 6: day, 7: day },
  slotMinutes: 30,
  price: 40,
  capacity: 3,
  priorityBefore: 7,
  priorityPrice: 70,
  priorityCapacity: 1,
  idPrefix: 'P3',
});
