import { Box, Typography } from '@mui/material';
import { addressLines, type AddressLike } from '../../components/AddressBlock';
import { providerName } from '../../components/AppointmentStatusChip';
import { formatPrice, slotProvider } from '../../components/SlotPicker';
import { ZonedDateTime } from '../../components/ZonedDateTime';
import { formatInZone, TIME, zoneAbbreviation } from '../../components/zonedTime';
import type { Slot } from '../../appointments/types';

/** The chosen slot in words before it is booked: when (patient's zone, and the viewer's), with whom (when known), where, what it costs. */
export const SlotSummary = ({ slot, timeZone, address }: { slot: Slot | null; timeZone: string; address?: AddressLike | null }) => {
  if (!slot) {
    return (
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Pick a time in the calendar above.
      </Typography>
    );
  }
  const where = addressLines(address).join(', ');
  const provider = slotProvider(slot);
  return (
    <Box aria-label="Chosen time" role="group" sx={{ mb: 2 }}>
      <Typography variant="subtitle2" component="p">
        Chosen time
      </Typography>
      <ZonedDateTime value={slot.start} timeZone={timeZone} />
      <Typography variant="body2">
        {`Until ${formatInZone(slot.end, timeZone, TIME)} ${zoneAbbreviation(timeZone, new Date(slot.end))} · ${formatPrice(slot.price)}${
          slot.is_priority ? ' · priority slot' : ''
        } · ${slot.num_appointments_available} ${slot.num_appointments_available === 1 ? 'place' : 'places'} left`}
      </Typography>
      {provider && (
        <Typography variant="body2" data-testid="chosen-provider">
          With {providerName(provider)}
        </Typography>
      )}
      {where && (
        <Typography variant="body2" color="text.secondary">
          At {where}
        </Typography>
      )}
    </Box>
  );
};
