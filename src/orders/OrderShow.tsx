import type { ReactNode } from 'react';
import { Box, Card, CardContent, CardHeader, Chip, Grid, Stack, Typography } from '@mui/material';
import { Link, ReferenceField, Show, TopToolbar, useCreatePath, useRecordContext, WithRecord } from 'react-admin';
import { LabAccountStatusChip } from '../lab-accounts/LabAccountStatusChip';
import type { LabAccountRecord } from '../lab-accounts/types';
import { BILLING_TYPES, COLLECTION_METHODS, LAB_NAMES, labelOf } from '../components/labLabels';
import { viewerTimeZone } from '../components/LocalTimeLabel';
import { OrderStatusChip } from '../components/OrderStatusChip';
import { CancelOrderButton } from './CancelOrderButton';
import { ClinicalDetails } from './ClinicalDetails';
import { patientName } from './OrderList';
import { formatInstant, OrderTimeline } from './OrderTimeline';
import { GENDERS } from './choices';
import { RequisitionButton } from './RequisitionButton';
import { TrackingLinks } from './triage/TrackingLinks';
import { TriagePanel } from './triage/TriagePanel';
import { ResultsCard } from './results/ResultsCard';
import { DetailItem, Muted } from '../components/DetailItem';
import { AppointmentScheduling } from './scheduling/AppointmentScheduling';
import { CollectionSection } from './walk-in/CollectionSection';
import type { OrderRecord } from './types';


/** Order fields read from free-form objects: an empty one says so. */
const Item = (props: { label: string; children: ReactNode; wide?: boolean }) => <DetailItem {...props} whenEmpty="Not given" />;

const str = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

const OrderTitle = () => {
  const record = useRecordContext<OrderRecord>();
  if (!record) return null;
  const name = patientName(record);
  return <span>Order {String(record.id).slice(0, 8)}{name ? ` for ${name}` : ''}</span>;
};

const OrderActions = () => (
  <TopToolbar>
    <RequisitionButton />
    <CancelOrderButton />
  </TopToolbar>
);

const Section = ({ title, label, subheader, children }: { title: string; label?: string; subheader?: string; children: ReactNode }) => (
  <Card component="section" aria-label={label ?? title}>
    <CardHeader title={title} subheader={subheader} />
    <CardContent sx={{ pt: 0 }}>{children}</CardContent>
  </Card>
);

const Summary = ({ record }: { record: OrderRecord }) => {
  const createPath = useCreatePath();
  const markers = record.lab_test?.markers ?? [];
  const shipment = record.details?.data?.shipment;
  return (
    <Section title="Order" subheader={`Times in your local time zone (${viewerTimeZone()})`}>
      <Stack direction="row" spacing={1} sx={{ mb: 2 }} aria-label="Order status">
        <OrderStatusChip value={record.status} level="top" />
        <OrderStatusChip value={record.low_level_status} />
      </Stack>
      <Grid container spacing={2}>
        <Item label="Order id">{record.id}</Item>
        <Item label="User">
          <ReferenceField source="user_id" reference="users" link="show" />
        </Item>
        <Item label="Created">{formatInstant(record.created_at)}</Item>
        <Item label="Last updated">{formatInstant(record.updated_at)}</Item>
        <Item label="Lab test">
          {record.lab_test?.name}
          {record.lab_test?.lab ? ` (${record.lab_test.lab.name})` : ''}
        </Item>
        <Item label="Collection method">{labelOf(COLLECTION_METHODS, record.details?.type)}</Item>
        <Item label="Billing type">{labelOf(BILLING_TYPES, record.billing_type)}</Item>
        <Item label="Priority">{record.priority ? 'STAT' : 'Routine'}</Item>
        <Item label="Sample id">{record.sample_id ?? ''}</Item>
        <Item label="Origin">{record.origin ?? ''}</Item>
        {record.original_order_id && (
          <Item label="Replaces order">
            <Link to={createPath({ resource: 'orders', id: record.original_order_id, type: 'show' })}>{record.original_order_id}</Link>
            {record.update_reason ? ` (${record.update_reason === 'INCORRECT_LAB' ? 'incorrect lab' : record.update_reason})` : ''}
          </Item>
        )}
        {shipment && (
          <Item label="Shipment" wide>
            <TrackingLinks order={record} />
          </Item>
        )}
        <Item label="Markers" wide>
          {markers.length ? (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
              {markers.map((m) => (
                <Chip key={m.id} label={m.name} size="small" variant="outlined" />
              ))}
            </Box>
          ) : (
            ''
          )}
        </Item>
      </Grid>
    </Section>
  );
};

const Patient = ({ record }: { record: OrderRecord }) => {
  const d = record.patient_details ?? {};
  return (
    <Section title="Patient">
      <Grid container spacing={2}>
        <Item label="Name">{patientName(record)}</Item>
        <Item label="Date of birth">{str(d.dob).slice(0, 10)}</Item>
        <Item label="Gender">{labelOf(GENDERS, str(d.gender))}</Item>
        <Item label="Phone">{str(d.phone_number)}</Item>
        <Item label="Email" wide>
          {str(d.email)}
        </Item>
      </Grid>
    </Section>
  );
};

const Address = ({ record }: { record: OrderRecord }) => {
  const a = record.patient_address ?? {};
  const cityLine = [str(a.city), [str(a.state), str(a.zip)].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const access = str(a.access_notes);
  return (
    <Section title="Address">
      <Grid container spacing={2}>
        <Item label="Receiver">{str(a.receiver_name)}</Item>
        <Item label="Phone">{str(a.phone_number)}</Item>
        <Item label="Address" wide>
          <Box component="address" sx={{ fontStyle: 'normal' }}>
            {[str(a.first_line), str(a.second_line), cityLine, str(a.country)].filter(Boolean).map((line) => (
              <div key={line}>{line}</div>
            ))}
          </Box>
        </Item>
        <Item label="Access notes" wide>
          {access ? (
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }} data-testid="access-notes">
              {access}
            </Typography>
          ) : (
            <Muted>None</Muted>
          )}
        </Item>
      </Grid>
    </Section>
  );
};

const LabAccount = ({ record }: { record: OrderRecord }) => (
  <Section title="Lab account">
    {record.lab_account_id ? (
      <ReferenceField<OrderRecord, LabAccountRecord> source="lab_account_id" reference="lab-accounts" link="show">
        <WithRecord<LabAccountRecord>
          render={(account) => (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <span>
                {account.account_name || account.provider_account_id} · {labelOf(LAB_NAMES, account.lab)}
              </span>
              <LabAccountStatusChip value={account.status} size="small" />
            </Stack>
          )}
        />
      </ReferenceField>
    ) : (
      <Muted>No lab account recorded for this order.</Muted>
    )}
  </Section>
);

const ClinicalNotes = ({ record }: { record: OrderRecord }) => (
  <Section title="Clinical notes" subheader="Printed on the requisition, followed by the lab account's default notes">
    {record.clinical_notes ? (
      <Typography sx={{ whiteSpace: 'pre-wrap' }} data-testid="clinical-notes">
        {record.clinical_notes}
      </Typography>
    ) : (
      <Muted>None</Muted>
    )}
  </Section>
);

export const OrderShow = () => (
  <Show title={<OrderTitle />} actions={<OrderActions />} component="div">
    <WithRecord<OrderRecord>
      render={(record) => (
        <Grid container spacing={2} sx={{ mt: 1 }}>
          {/* Walk-in and on-site orders: where the sample is drawn, first. */}
          <CollectionSection order={record} />
          {/* At-home phlebotomy orders only, first under the page's header: booking the draw is what
              a coordinator opens such an order for; a two-week slot calendar needs the full width. */}
          <Grid size={12}>
            <AppointmentScheduling order={record} />
          </Grid>
          <Grid size={{ xs: 12, md: 7 }}>
            <Stack spacing={2}>
              <Summary record={record} />
              <Patient record={record} />
              <Address record={record} />
              <ClinicalDetails record={record} />
              <ClinicalNotes record={record} />
            </Stack>
          </Grid>
          <Grid size={{ xs: 12, md: 5 }}>
            <Stack spacing={2}>
              <TriagePanel order={record} />
              <OrderTimeline />
              <LabAccount record={record} />
            </Stack>
          </Grid>
          <Grid size={12}>
            <ResultsCard order={record} />
          </Grid>
        </Grid>
      )}
    />
  </Show>
);
