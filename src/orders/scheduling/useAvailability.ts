/**
 * The slots on offer for an order, 14 days at a time, kept fresh: booking keys expire (15 minutes
 * at most, or at the slot's start), so when the first one still valid expires while the calendar
 * is open, the slots are asked for again by themselves.
 */
import { useCallback, useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { addDays } from '../../components/dateRange';
import type { LabdeskDataProvider } from '../../providers/types';
import type { AddressBody, AvailabilityAnswer } from '../../appointments/types';
import { AVAILABILITY_DAYS } from '../../appointments/types';
import { nextExpiry } from './slots';

/** A little after the expiry, so the new answer no longer carries the expired offer. */
const EXPIRY_MARGIN_MS = 250;
/** setTimeout's limit; expiries are minutes away, this only guards against odd answers. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function useAvailability(orderId: string, address?: AddressBody) {
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  // Undefined: the service's default window, which starts today in the address's zone.
  const [startDate, setStartDate] = useState<string | undefined>(undefined);
  // The first day of the default window: there is nothing bookable before it.
  const [firstBookableDay, setFirstBookableDay] = useState<string | undefined>(undefined);

  const query = useQuery<AvailabilityAnswer>({
    queryKey: ['appointment-availability', orderId, address ?? null, startDate ?? null],
    queryFn: () => dataProvider.getAppointmentAvailability(orderId, { address, start_date: startDate }),
    // Slots change by the minute and keys expire: never serve an old answer from the cache.
    staleTime: 0,
    gcTime: 0,
    retry: false,
    // Keep the current two weeks on screen while the next ones load.
    placeholderData: keepPreviousData,
  });
  const { data, isPlaceholderData, refetch } = query;
  const days = data?.slots ?? [];
  const shownFirstDay = days[0]?.date;

  useEffect(() => {
    if (startDate === undefined && shownFirstDay && !isPlaceholderData) setFirstBookableDay(shownFirstDay);
  }, [startDate, shownFirstDay, isPlaceholderData]);

  useEffect(() => {
    if (!data || isPlaceholderData) return;
    const next = nextExpiry(data.slots);
    if (next === null) return;
    const timer = setTimeout(() => void refetch(), Math.min(next - Date.now() + EXPIRY_MARGIN_MS, MAX_TIMER_MS));
    return () => clearTimeout(timer);
  }, [data, isPlaceholderData, refetch]);

  /** Asks again now; resolves with the new answer (undefined if the call failed). */
  const refresh = useCallback(async () => (await refetch()).data, [refetch]);

  const previous = useCallback(() => {
    if (!shownFirstDay) return;
    const target = addDays(shownFirstDay, -AVAILABILITY_DAYS);
    // Never before the first bookable day; that window is the default one.
    setStartDate(firstBookableDay && target <= firstBookableDay ? undefined : target);
  }, [shownFirstDay, firstBookableDay]);

  const next = useCallback(() => {
    if (shownFirstDay) setStartDate(addDays(shownFirstDay, AVAILABILITY_DAYS));
  }, [shownFirstDay]);

  return {
    query,
    data,
    days,
    timeZone: data?.timezone ?? null,
    /** Loading another window (the old one stays on screen meanwhile). */
    isChangingWindow: isPlaceholderData,
    refresh,
    previous,
    next,
    previousDisabled: !shownFirstDay || startDate === undefined || (firstBookableDay !== undefined && shownFirstDay <= firstBookableDay),
  };
}
