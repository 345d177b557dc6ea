/**
 * An order's clinical details: the ordering physician, ICD-10 diagnosis codes, the insurance it
 * bills and the consents given (with their version and when they were given, in the viewer's time).
 */
import { Box, Card, CardContent, CardHeader, Chip, Grid } from '@mui/material';
import { DetailItem, Muted } from '../components/DetailItem';
import { CONSENT_LABELS } from './form/ConsentSection';
import { labelOf } from './choices';
import { formatInstant } from './OrderTimeline';
import type { OrderRecord } from './types';

const str = (v: unknown) => (typeof v === 'string' ? v : '');

const Insurance = ({ insurance }: { insurance: NonNullable<OrderRecord['health_insurance']> }) => {
  const subscriber = insurance.responsible_details;
  const subscriberName = subscriber ? `${str(subscriber.first_name)} ${str(subscriber.last_name)}`.trim() : '';
  return (
    <>
      <DetailItem label="Payor">{insurance.payor_code}</DetailItem>
      <DetailItem label="Member id">{insurance.insurance_id}</DetailItem>
      <DetailItem label="Group number">{insurance.group_id || <Muted>Not given</Muted>}</DetailItem>
      <DetailItem label="Relation to the subscriber">
        {insurance.responsible_relationship === 'Self' ? 'Self (the patient)' : insurance.responsible_relationship}
        {subscriberName ? ` · subscriber ${subscriberName}` : ''}
      </DetailItem>
    </>
  );
};

export const ClinicalDetails = ({ record }: { record: OrderRecord }) => {
  const codes = record.icd_codes ?? [];
  const consents = record.consents ?? [];
  return (
    <Card component="section" aria-label="Clinical details">
      <CardHeader title="Clinical details" />
      <CardContent sx={{ pt: 0 }}>
        <Grid container spacing={2}>
          <DetailItem label="Ordering physician">
            {record.physician ? `${record.physician.first_name} ${record.physician.last_name} · NPI ${record.physician.npi}` : <Muted>None recorded</Muted>}
          </DetailItem>
          <DetailItem label="ICD-10 codes">
            {codes.length ? (
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                {codes.map((c) => (
                  <Chip key={c} label={c} size="small" variant="outlined" />
                ))}
              </Box>
            ) : (
              <Muted>None</Muted>
            )}
          </DetailItem>
          {record.health_insurance ? (
            <Insurance insurance={record.health_insurance} />
          ) : (
            <DetailItem label="Insurance">
              <Muted>{record.billing_type === 'commercial_insurance' ? 'Billed to insurance; no details recorded' : 'Not billed to insurance'}</Muted>
            </DetailItem>
          )}
          <DetailItem label="Consents" wide>
            {consents.length ? (
              <Box component="ul" sx={{ m: 0, pl: 2 }}>
                {consents.map((c) => (
                  <li key={`${c.consentType}-${c.timeOfConsent}`}>
                    {labelOf(CONSENT_LABELS, c.consentType)}
                    {c.version ? `, version ${c.version}` : ''}
                    {c.timeOfConsent ? ` · given ${formatInstant(c.timeOfConsent)}` : ' · time not recorded'}
                  </li>
                ))}
              </Box>
            ) : (
              <Muted>None recorded</Muted>
            )}
          </DetailItem>
        </Grid>
      </CardContent>
    </Card>
  );
};
