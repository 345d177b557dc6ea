import { randomBytes } from 'node:crypto';
import { wallTimeToInstant } from '../../lib/timezones';
import type { PhlebotomyProvider, ProviderBehaviour, ProviderBookingRequest, ProviderTicket, SlotTemplate, TicketState } from './types';

export interface WorkingDay {
  /** Local opening and closing hour (closing exclusive: the last slot ends by then). */
  open: number;
  close: number;
}

export interface SimulatedProviderConfig {
  slug: string;
  name: string;
  /** Inclusive zip3 ranges served. */
  area: [number, number][];
  /** Working hours per ISO weekday (1 Monday .. 7 Sunday); a missing day is closed. */
  hours: Partial<Record<1 | 2 | 3 | 4 | 5 | 6 | 7, WorkingDay>>;
  slotMinutes: number;
  price: number;
  capacity: number;
  /** Slots starting before this local hour are priority slots (early draws, e.g. fasting). */
  priorityBefore?: number;
  priorityPrice?: number;
  priorityCapacity?: number;
  /** Prefix of the provider's own booking ids. */
  idPrefix: string;
}

/** ISO weekday (1 Monday .. 7 Sunday) of a calendar date. */
function isoWeekday(date: string): 1 | 2 | 3 | 4 | 5 | 6 | 7 {
  const d = new Date(`${date}T00:00:00Z`).getUTCDay();
  return (d === 0 ? 7 : d) as 1 | 2 | 3 | 4 | 5 | 6 | 7;
}

/** A provider simulated in-process from a table of facts: the adapters provider_1..provider_4. */
export class SimulatedProvider implements PhlebotomyProvider {
  constructor(private readonly cfg: SimulatedProviderConfig) {}

  get slug() {
    return this.cfg.slug;
  }

  get name() {
    return this.cfg.name;
  }

  serves(zip: string): boolean {
    const zip3 = Number(zip.slice(0, 3));
    return this.cfg.area.some(([lo, hi]) => zip3 >= lo && zip3 <= hi);
  }

  slotsOn(zone: string, date: string): SlotTemplate[] {
    const day = this.cfg.hours[isoWeekday(date)];
    if (!day) return [];
    const midnight = Date.parse(`${date}T00:00:00Z`);
    const out: SlotTemplate[] = [];
    for (let m = day.open * 60; m + this.cfg.slotMinutes <= day.close * 60; m += this.cfg.slotMinutes) {
      const start = wallTimeToInstant(zone, midnight + m * 60_000);
      const end = wallTimeToInstant(zone, midnight + (m + this.cfg.slotMinutes) * 60_000);
      const isPriority = this.cfg.priorityBefore !== undefined && m < this.cfg.priorityBefore * 60;
      out.push({
        provider: this.cfg.slug,
        start,
        end,
        isPriority,
        price: isPriority ? (this.cfg.priorityPrice ?? this.cfg.price) : this.cfg.price,
        capacity: isPriority ? (this.cfg.priorityCapacity ?? this.cfg.capacity) : this.cfg.capacity,
      });
    }
    return out;
  }

  submit(_request: ProviderBookingRequest, behaviour: ProviderBehaviour, now = new Date(), random: () => number = Math.random): ProviderTicket {
    return {
      ticket_id: `${this.cfg.idPrefix}-${randomBytes(5).toString('hex').toUpperCase()}`,
      submitted_at: now.toISOString(),
      ready_at: new Date(now.getTime() + Math.max(0, behaviour.latency_ms)).toISOString(),
      outcome: random() < behaviour.failure_rate ? 'rejected' : 'confirmed',
    };
  }

  poll(ticket: ProviderTicket, now = new Date()): TicketState {
    return now.getTime() >= Date.parse(ticket.ready_at) ? ticket.outcome : 'pending';
  }
}
