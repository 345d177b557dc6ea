/** A secret (a signing secret, a generated password) in monospace, selectable, with a copy button. */
import { Box, Stack } from '@mui/material';
import { CopyButton } from './CopyButton';

export const SecretBox = ({ secret, copyLabel = 'Copy secret', testId = 'webhook-secret' }: { secret: string; copyLabel?: string; testId?: string }) => (
  <Stack direction="row" spacing={1} alignItems="center" sx={{ my: 1 }}>
    <Box
      component="code"
      data-testid={testId}
      sx={{ fontFamily: 'monospace', p: 1, bgcolor: 'background.default', border: '1px solid', borderColor: 'divider', borderRadius: 1, wordBreak: 'break-all', userSelect: 'all', flex: 1 }}
    >
      {secret}
    </Box>
    <CopyButton text={secret} label={copyLabel} variant="outlined" size="small" />
  </Stack>
);
