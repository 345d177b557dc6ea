/** Shows the endpoint's signing secret on demand (the BFF audits each reveal), and hides it again. */
import { useState } from 'react';
import { Alert, Box, Button } from '@mui/material';
import KeyIcon from '@mui/icons-material/Key';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { useMutation } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { LabdeskDataProvider } from '../providers/types';
import { SecretBox } from '../components/SecretBox';

export const RevealSecret = ({ endpointId }: { endpointId: string }) => {
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const [secret, setSecret] = useState<string | null>(null);
  // A mutation, not a query: a reveal is an audited action, never cached or refetched by itself.
  const reveal = useMutation({
    mutationFn: () => dataProvider.getWebhookEndpointSecret(endpointId),
    onSuccess: (answer) => setSecret(answer.secret),
  });
  if (secret) {
    return (
      <Box>
        <SecretBox secret={secret} />
        <Button size="small" startIcon={<VisibilityOffIcon />} onClick={() => setSecret(null)}>
          Hide secret
        </Button>
      </Box>
    );
  }
  return (
    <Box>
      <Button variant="outlined" size="small" startIcon={<KeyIcon />} onClick={() => reveal.mutate()} disabled={reveal.isPending}>
        Reveal secret
      </Button>
      {reveal.error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {`The secret could not be read: ${reveal.error.message}`}
        </Alert>
      )}
    </Box>
  );
};
