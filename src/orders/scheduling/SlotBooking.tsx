/**
 * Pick a slot and book it (or move an appointment to it). The rules that keep a wrong booking from
 * reaching a patient live here:
 * - an expired slot is never sent: the slots are refreshed instead, and the choice is kept only if
 *   the very same offer is still there (with its new key), still waiting for a click on Book;
 * - a 410 (expired) or 409 (taken) answer refreshes the slots and says so;
 * - a 502 (the provider did not confirm) says nothing was booked;
 * - one call at a time: the button and the calendar are held while it is in flight.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, LinearProgress, Typography } from '@mui/material';
import { useDataProvider, useNotify } from 'react-admin';
import { SlotPicker } from '../../components/SlotPicker';
import { formatInZone, isKnownZone, zoneAbbreviation } from '../../components/zonedTime';
import type { LabdeskDataProvider } from '../../providers/types';
import type { AddressBody, AppointmentRecord, Slot } from '../../appointments/types';
import { bookingProblemOf, splitFieldErrors, type BookingProblem } from './bookingProblems';
import { BookingForm } from './BookingForm';
import { BOOKING_FORM_FIELDS, toBookBody, toBookingFormErrors, toRescheduleBody, type BookingFormValues } from './bookingBody';
import { findSameSlot, isExpired } from './slots';
import { useAppointmentChanged } from './useAppointmentChanged';
import { useAvailability } from './useAvailability';

type Notice = { severity: 'info' | 'warning' | 'error'; text: string };

export const EXPIRED_MESSAGE = 'The slots expired and were refreshed; pick a time again.';

export interface SlotBookingProps {
  orderId: string;
  /** The address the slots are for: the order's patient address when absent, else this one (a reschedule's). */
  address?: AddressBody;
  mode: 'book' | 'reschedule';
  /** appointments:write. Without it the calendar is only shown. */
  canBook: boolean;
  initialNotes?: string | null;
  /** When rescheduling: the appointment's present start, marked on the calendar. */
  currentStart?: string | null;
  /** Called once the page shows the booked (or moved) appointment. */
  onDone?: (appointment: AppointmentRecord) => void;
}

function doneMessage(appointment: AppointmentRecord, mode: SlotBookingProps['mode']): string {
  const zone = appointment.iana_timezone;
  const when =
    appointment.start_at && isKnownZone(zone)
      ? `${formatInZone(appointment.start_at, zone)} ${zoneAbbreviation(zone, new Date(appointment.start_at))}`
      : 'the chosen time';
  if (mode === 'reschedule') return `Appointment moved to ${when}`;
  if (appointment.status === 'confirmed') return `Draw booked and confirmed for ${when}`;
  return `Booking sent for ${when}; waiting for the provider to confirm`;
}

export const SlotBooking = ({ orderId, address, mode, canBook, initialNotes, currentStart, onDone }: SlotBookingProps) => {
  const availability = useAvailability(orderId, address);
  const { data, days, query, refresh } = availability;
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const notify = useNotify();
  const changed = useAppointmentChanged();
  const [chosen, setChosen] = useState<Slot | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const inFlight = useRef(false);
  const actionLabel = mode === 'book' ? 'Book' : 'Reschedule to this time';

  // Every answer brings new booking keys: follow the chosen offer into it, or let it go (and say so).
  useEffect(() => {
    if (!chosen || availability.isChangingWindow) return;
    const same = findSameSlot(days, chosen);
    if (!same) {
      setChosen(null);
      setNotice((current) => current ?? { severity: 'info', text: 'The time you picked is no longer offered; pick another.' });
    } else if (same.booking_key !== chosen.booking_key) {
      setChosen(same);
    }
  }, [days, chosen, availability.isChangingWindow]);

  /** Asks for the slots again; keeps the choice only if the same offer is still there. */
  const refreshKeeping = useCallback(
    async (slot: Slot | null, said: { kept: string; gone: string; severity: Notice['severity'] }) => {
      setRefreshing(true);
      try {
        const answer = await refresh();
        const same = slot ? findSameSlot(answer?.slots, slot) : null;
        setChosen(same);
        setNotice({ severity: said.severity, text: same ? said.kept : said.gone });
      } finally {
        setRefreshing(false);
      }
    },
    [refresh],
  );

  const handleProblem = useCallback(
    async (problem: BookingProblem, slot: Slot): Promise<Record<string, string> | undefined> => {
      switch (problem.kind) {
        case 'expired':
          await refreshKeeping(slot, {
            severity: 'warning',
            kept: `The slots expired and were refreshed. Your time is still offered and stays selected: press "${actionLabel}" again to book it.`,
            gone: EXPIRED_MESSAGE,
          });
          return undefined;
        case 'taken':
          await refreshKeeping(null, {
            severity: 'warning',
            kept: '',
            gone: 'That time was just taken by another booking. The slots were refreshed: pick another time.',
          });
          return undefined;
        case 'has_appointment':
          // Booked meanwhile (another tab, another coordinator): show that one; this calendar goes away.
          notify(`Not booked: ${problem.message}. The order's appointment is shown instead.`, { type: 'warning' });
          await changed();
          return undefined;
        case 'not_confirmed': {
          const text =
            mode === 'book'
              ? 'The provider could not confirm this time, so nothing was booked. Try again, or choose "Let the provider confirm later".'
              : 'The provider could not confirm the new time, so the appointment was not moved.';
          // Places may have changed meanwhile: fresh slots, same choice if still offered (the key is not used up).
          await refreshKeeping(slot, { severity: 'error', kept: text, gone: `${text} That time is no longer offered.` });
          return undefined;
        }
        case 'invalid': {
          const { onFields, elsewhere } = splitFieldErrors(toBookingFormErrors(problem.errors), BOOKING_FORM_FIELDS);
          if (elsewhere.length) {
            // booking_key and the like: nothing the user can edit; fresh slots are the way out.
            const said = `${problem.message} (${elsewhere.join('; ')}). The slots were refreshed`;
            await refreshKeeping(slot, { severity: 'error', kept: `${said}.`, gone: `${said}; pick a time again.` });
          }
          if (Object.keys(onFields).length) {
            notify(`Check the highlighted fields. ${problem.message}`, { type: 'error' });
            return onFields;
          }
          return undefined;
        }
        default:
          setNotice({ severity: 'error', text: `Could not ${mode === 'book' ? 'book' : 'reschedule'}: ${problem.message}` });
          // A refusal may mean the appointment changed under us (e.g. no longer reschedulable).
          await changed();
          return undefined;
      }
    },
    [actionLabel, changed, mode, notify, refreshKeeping],
  );

  const submit = async (values: BookingFormValues): Promise<Record<string, string> | undefined> => {
    const slot = chosen;
    if (!slot || inFlight.current) return undefined;
    inFlight.current = true;
    setSubmitting(true);
    try {
      if (isExpired(slot)) {
        // Never send a key we know is dead: refresh, and let the user confirm the time again.
        return await handleProblem({ kind: 'expired', message: '' }, slot);
      }
      const appointment =
        mode === 'book'
          ? await dataProvider.bookAppointment(orderId, toBookBody(slot, values))
          : await dataProvider.rescheduleAppointment(orderId, toRescheduleBody(slot, values));
      setNotice(null);
      await changed();
      notify(doneMessage(appointment, mode), { type: 'success' });
      onDone?.(appointment);
      return undefined;
    } catch (error) {
      return await handleProblem(bookingProblemOf(error), slot);
    } finally {
      inFlight.current = false;
      setSubmitting(false);
    }
  };

  const changeWindow = (go: () => void) => () => {
    setChosen(null);
    setNotice(null);
    go();
  };

  if (query.isPending) return <LinearProgress aria-label="Loading the slots" />;
  if (!data) {
    return (
      <Alert severity="error" action={<Button onClick={() => void query.refetch()}>Try again</Button>}>
        Could not load the slots: {query.error instanceof Error ? query.error.message : 'the server did not answer'}
      </Alert>
    );
  }

  // Slot times are only ever shown in the address's zone. Without one, UTC, said out loud.
  const zone = isKnownZone(data.timezone) ? data.timezone : 'UTC';
  const noSlots = days.every((d) => d.slots.length === 0);
  return (
    <Box>
      {zone !== data.timezone && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          The service did not name this address&apos;s time zone, so the times below are in UTC.
        </Alert>
      )}
      {notice && (
        <Alert severity={notice.severity} onClose={() => setNotice(null)} sx={{ mb: 1 }}>
          {notice.text}
        </Alert>
      )}
      {query.isError && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          Could not refresh the slots; those shown may be out of date.
        </Alert>
      )}
      <SlotPicker
        days={days}
        timeZone={zone}
        zoneOwner={zone === data.timezone ? "the patient's time zone" : 'not the patient’s time zone'}
        selectedKey={chosen?.booking_key}
        onSelect={
          canBook
            ? (slot) => {
                setChosen(slot);
                setNotice(null);
              }
            : undefined
        }
        onPrevious={changeWindow(availability.previous)}
        onNext={changeWindow(availability.next)}
        previousDisabled={availability.previousDisabled}
        disabled={refreshing || submitting || availability.isChangingWindow}
        currentStart={currentStart}
      />
      {noSlots && (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          No slots in these 14 days. Try the next 14 days{mode === 'book' ? ', or request an appointment' : ''}.
        </Typography>
      )}
      {canBook && (
        <BookingForm
          slot={chosen}
          timeZone={zone}
          address={data.address}
          mode={mode}
          initialNotes={initialNotes}
          onSubmit={submit}
          disabled={refreshing || availability.isChangingWindow}
        />
      )}
    </Box>
  );
};
