import { Box, Card, CardContent, CardHeader, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { FunctionField, Show, SimpleShowLayout, TextField, useRecordContext } from 'react-admin';
import { BILLING_TYPES, labelOf } from '../components/labLabels';
import { labName } from './LabAccountList';
import { LabAccountStatusChip } from './LabAccountStatusChip';
import type { LabAccountRecord } from './types';

const Muted = ({ children }: { children: string }) => (
  <Typography variant="body2" color="text.secondary" component="span">
    {children}
  </Typography>
);

const LabAccountTitle = () => {
  const record = useRecordContext<LabAccountRecord>();
  return <span>Lab account {record ? record.account_name || record.provider_account_id : ''}</span>;
};

/** Which billing types the account allows, and in which US states. */
export const AllowedBilling = () => {
  const record = useRecordContext<LabAccountRecord>();
  if (!record) return null;
  const entries = Object.entries(record.allowed_billing ?? {});
  return (
    <Card>
      <CardHeader title="Allowed billing" subheader="Where each billing type may be used with this account (patient's state)" />
      <CardContent sx={{ pt: 0 }}>
        {entries.length === 0 ? (
          <Muted>No billing type is allowed: orders cannot be placed under this account.</Muted>
        ) : (
          <Table size="small" aria-label="Allowed billing">
            <TableHead>
              <TableRow>
                <TableCell>Billing type</TableCell>
                <TableCell>States</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {entries.map(([type, states]) => (
                <TableRow key={type}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{labelOf(BILLING_TYPES, type)}</TableCell>
                  <TableCell>
                    {states.length === 0 ? (
                      <Muted>No states</Muted>
                    ) : (
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                        {states.map((st) => (
                          <Chip key={st} label={st} size="small" variant="outlined" />
                        ))}
                      </Box>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
};

export const DefaultClinicalNotes = () => {
  const record = useRecordContext<LabAccountRecord>();
  if (!record) return null;
  return (
    <Card component="section" aria-label="Default clinical notes">
      <CardHeader title="Default clinical notes" subheader="Printed on the requisition of every order under this account, after the order's own notes" />
      <CardContent sx={{ pt: 0 }}>
        {record.default_clinical_notes ? (
          <Typography sx={{ whiteSpace: 'pre-wrap' }}>{record.default_clinical_notes}</Typography>
        ) : (
          <Muted>None</Muted>
        )}
      </CardContent>
    </Card>
  );
};

export const LabAccountShow = () => (
  <Show title={<LabAccountTitle />} component="div">
    <Stack spacing={2} sx={{ mt: 1 }}>
      <Card>
        <CardHeader title="Account" />
        <CardContent sx={{ pt: 0 }}>
          <SimpleShowLayout
            spacing={0}
            sx={{ p: 0, '& .RaSimpleShowLayout-stack': { display: 'grid', gridTemplateColumns: { sm: '1fr 1fr' }, gap: 2 } }}
          >
            <FunctionField<LabAccountRecord> label="Account name" render={(r) => r.account_name || <Muted>Not named</Muted>} />
            <FunctionField<LabAccountRecord> label="Lab" render={(r) => labName(r.lab)} />
            <FunctionField<LabAccountRecord> label="Status" render={(r) => <LabAccountStatusChip value={r.status} />} />
            <FunctionField<LabAccountRecord> label="Delegation" render={(r) => r.delegated_flow.replace(/_/g, ' ')} />
            <TextField source="provider_account_id" label="Provider account id" />
            <FunctionField<LabAccountRecord> label="Organisation id" render={(r) => r.org_id || <Muted>Not set</Muted>} />
            <FunctionField<LabAccountRecord>
              label="Business units"
              render={(r) => (r.business_units?.length ? r.business_units.join(', ') : <Muted>None</Muted>)}
            />
            <TextField source="id" label="Lab account id" />
          </SimpleShowLayout>
        </CardContent>
      </Card>
      <AllowedBilling />
      <DefaultClinicalNotes />
    </Stack>
  </Show>
);
