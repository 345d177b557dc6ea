import { Card, CardContent, CardHeader, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { FunctionField, Show, SimpleShowLayout, TextField, useRecordContext } from 'react-admin';
import { useLabs } from './LabSelectInput';
import { formatPrice } from './MarkerList';
import type { MarkerRecord } from './types';

const Muted = ({ children }: { children: string }) => (
  <Typography variant="body2" color="text.secondary" component="span">
    {children}
  </Typography>
);

const MarkerTitle = () => {
  const record = useRecordContext<MarkerRecord>();
  return <span>Marker {record?.name ?? ''}</span>;
};

const days = (n: number | null | undefined) => (n == null ? null : `${n} ${n === 1 ? 'day' : 'days'}`);

/** What the marker reports: each expected result and its LOINC code. */
export const ExpectedResults = () => {
  const record = useRecordContext<MarkerRecord>();
  if (!record) return null;
  const results = record.expected_results ?? [];
  return (
    <Card component="section" aria-label="Expected results">
      <CardHeader title="Expected results" subheader={`${results.length} ${results.length === 1 ? 'result' : 'results'}`} />
      <CardContent sx={{ pt: 0 }}>
        {results.length === 0 ? (
          <Muted>The catalogue lists no expected results for this marker.</Muted>
        ) : (
          <Table size="small" aria-label="Expected results">
            <TableHead>
              <TableRow>
                <TableCell>Result</TableCell>
                <TableCell>Required</TableCell>
                <TableCell>LOINC</TableCell>
                <TableCell>LOINC name</TableCell>
                <TableCell>Unit</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {results.map((r) => (
                <TableRow key={r.id}>
                  <TableCell>{r.name}</TableCell>
                  <TableCell>{r.required ? 'Yes' : 'No'}</TableCell>
                  <TableCell>{r.loinc?.code ?? <Muted>None</Muted>}</TableCell>
                  <TableCell>{r.loinc?.name ?? ''}</TableCell>
                  <TableCell>{r.loinc?.unit ?? ''}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
};

export const MarkerShow = () => {
  const { labs } = useLabs();
  return (
    <Show title={<MarkerTitle />} component="div">
      <Stack spacing={2} sx={{ mt: 1 }}>
        <Card>
          <CardHeader title="Marker" />
          <CardContent sx={{ pt: 0 }}>
            <SimpleShowLayout
              spacing={0}
              sx={{ p: 0, '& .RaSimpleShowLayout-stack': { display: 'grid', gridTemplateColumns: { sm: '1fr 1fr' }, gap: 2 } }}
            >
              <TextField source="name" label="Name" />
              <TextField source="slug" label="Slug" />
              <FunctionField<MarkerRecord> label="Test code" render={(r) => r.provider_id ?? <Muted>None</Muted>} />
              <FunctionField<MarkerRecord>
                label="Lab"
                render={(r) => labs.find((l) => l.id === r.lab_id)?.name ?? (r.lab_id == null ? <Muted>Not set</Muted> : `Lab ${r.lab_id}`)}
              />
              <FunctionField<MarkerRecord> label="Type" render={(r) => r.type ?? <Muted>Not set</Muted>} />
              <FunctionField<MarkerRecord> label="Unit" render={(r) => r.unit ?? <Muted>Not set</Muted>} />
              <FunctionField<MarkerRecord> label="Price" render={(r) => formatPrice(r.price) ?? <Muted>Not set</Muted>} />
              <FunctionField<MarkerRecord> label="À la carte" render={(r) => (r.a_la_carte_enabled ? 'Yes' : 'No')} />
              <FunctionField<MarkerRecord>
                label="Turnaround"
                render={(r) =>
                  r.common_tat_days == null ? (
                    <Muted>Not known</Muted>
                  ) : (
                    `${days(r.common_tat_days)} usually${r.worst_case_tat_days != null ? `, ${days(r.worst_case_tat_days)} at worst` : ''}`
                  )
                }
              />
              <FunctionField<MarkerRecord>
                label="Ask-on-order questions"
                render={(r) => String(r.aoe?.questions.length ?? 0)}
              />
              <FunctionField<MarkerRecord>
                label="Description"
                render={(r) => (r.description ? <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>{r.description}</Typography> : <Muted>None</Muted>)}
              />
            </SimpleShowLayout>
          </CardContent>
        </Card>
        <ExpectedResults />
      </Stack>
    </Show>
  );
};
