/**
 * "Book a draw": confirm the address first (slots are for the patient's address on the order),
 * then pick a slot. For another address, or when no slot suits, request an appointment instead.
 */
import { Alert, Box, Stack, Typography } from '@mui/material';
import { AddressBlock } from '../../components/AddressBlock';
import type { OrderRecord } from '../types';
import { RequestAppointmentButton } from './RequestAppointmentButton';
import { SlotBooking } from './SlotBooking';

export const BookDraw = ({ order, canBook }: { order: OrderRecord; canBook: boolean }) => (
  <Box component="section" aria-label={canBook ? 'Book a draw' : 'Times on offer'}>
    <Typography variant="h6" component="h3" gutterBottom>
      {canBook ? 'Book a draw' : 'Times on offer'}
    </Typography>
    <Alert severity="info" icon={false} sx={{ mb: 2 }}>
      <Typography variant="subtitle2" component="p">
        The slots below are for the patient&apos;s address on this order:
      </Typography>
      <Box sx={{ my: 1 }}>
        <AddressBlock address={order.patient_address} label="Patient address on the order" />
      </Box>
      {canBook ? (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <Typography variant="body2">For a draw at another address, or when no time below suits the patient:</Typography>
          <RequestAppointmentButton orderId={order.id} orderAddress={order.patient_address} />
        </Stack>
      ) : (
        <Typography variant="body2">Care coordinators book draws; your role can see the times on offer but not book them.</Typography>
      )}
    </Alert>
    <SlotBooking orderId={order.id} mode="book" canBook={canBook} />
  </Box>
);
