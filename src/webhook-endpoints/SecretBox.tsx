/** A signing secret in monospace, selectable, with a copy button. */
import { Box, Stack } from '@mui/material';
import { CopyButton } from '../components/CopyButton';

export const SecretBox = ({ secret }: { secret: string }) => (
  <Stack direction="row" spacing={1} alignItems="center" sx={{ my: 1 }}>
    <Box
      component="code"
      data-testid="webhook-secret"
      sx={{ fontFamily: 'monospace', p: 1, bgcolor: 'background.default', border: '1px solid', borderColor: 'divider', borderRadius: 1, wordBreak: 'break-all', userSelect: 'all', flex: 1 }}
    >
      {secret}
    </Box>
    <CopyButton text={secret} label="Copy secret" variant="outlined" size="small" />
  </Stack>
);
