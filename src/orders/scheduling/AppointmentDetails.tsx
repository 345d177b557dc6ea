/**
 * What a coordinator needs to know about an appointment, on the order page and the appointment
 * page alike: status, when (in the patient's zone, named, and the viewer's time), who, the notes,
 * where (with the access notes) and what happened so far.
 */
import { Grid, Typography } from '@mui/material';
import { DetailItem } from '../../components/DetailItem';
import { AddressBlock } from '../../components/AddressBlock';
import { AppointmentStatusChip, providerName } from '../../components/AppointmentStatusChip';
import { ZonedDateTime } from '../../components/ZonedDateTime';
import { formatInZone, isKnownZone, TIME, zoneAbbreviation } from '../../components/zonedTime';
import type { AppointmentRecord } from '../../appointments/types';
import { AppointmentEvents } from './AppointmentEvents';
import { isRequest } from './appointmentState';


const When = ({ appointment }: { appointment: AppointmentRecord }) => {
  const zone = appointment.iana_timezone;
  if (!appointment.start_at) {
    return <ZonedDateTime value={null} timeZone={zone} empty={isRequest(appointment) ? 'Requested: the provider will propose a time' : 'No time yet'} />;
  }
  return (
    <>
      <ZonedDateTime value={appointment.start_at} timeZone={zone} />
      {appointment.end_at && isKnownZone(zone) && (
        <Typography variant="caption" color="text.secondary" component="div">
          {`Until ${formatInZone(appointment.end_at, zone, TIME)} ${zoneAbbreviation(zone, new Date(appointment.end_at))}`}
        </Typography>
      )}
    </>
  );
};

export const AppointmentDetails = ({ appointment }: { appointment: AppointmentRecord }) => (
  <Grid container spacing={2}>
    <DetailItem label="Status">
      <AppointmentStatusChip value={appointment.status} />
    </DetailItem>
    <DetailItem label={appointment.iana_timezone ? `When (patient's time zone: ${appointment.iana_timezone})` : 'When'}>
      <When appointment={appointment} />
    </DetailItem>
    <DetailItem label="Provider">{providerName(appointment.provider) || '—'}</DetailItem>
    <DetailItem label="Provider reference">{appointment.provider_id || '—'}</DetailItem>
    <DetailItem label="Appointment notes" wide>
      {appointment.appointment_notes ? (
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }} data-testid="appointment-notes">
          {appointment.appointment_notes}
        </Typography>
      ) : (
        <Typography variant="body2" color="text.secondary">
          None
        </Typography>
      )}
    </DetailItem>
    <DetailItem label="Address" wide>
      <AddressBlock address={appointment.address} label="Appointment address" />
    </DetailItem>
    <DetailItem label="Events" wide>
      <AppointmentEvents events={appointment.events} />
    </DetailItem>
  </Grid>
);
