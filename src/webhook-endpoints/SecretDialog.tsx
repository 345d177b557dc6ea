/**
 * The new endpoint's signing secret, shown once: the service keeps it, but the dashboard shows it
 * again only through "Reveal secret", which is audited. The receiver needs it to check signatures.
 */
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { SecretBox } from '../components/SecretBox';

export const SecretDialog = ({ secret, onClose }: { secret: string; onClose: () => void }) => (
  <Dialog open aria-labelledby="secret-title" maxWidth="sm" fullWidth>
    <DialogTitle id="secret-title">Endpoint created: copy its signing secret</DialogTitle>
    <DialogContent>
      <DialogContentText sx={{ mb: 1 }}>
        Your server checks the signature of every delivery with this secret (Standard Webhooks: the webhook-signature header).
      </DialogContentText>
      <SecretBox secret={secret} />
      <Alert severity="warning" sx={{ mt: 2 }}>
        It will not be shown again here. Store it in your server&apos;s configuration now; an admin can reveal it later from the endpoint&apos;s page.
      </Alert>
    </DialogContent>
    <DialogActions>
      <Button variant="contained" onClick={onClose}>
        I have stored the secret
      </Button>
    </DialogActions>
  </Dialog>
);
