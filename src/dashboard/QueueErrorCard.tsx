/** A queue whose count could not be read this time: why, and a button that asks again (the other cards stay). */
import { Button, Card, CardContent, Typography } from '@mui/material';
import { queueHeadingId } from './QueueCard';

export const QueueErrorCard = ({ title, error, onRetry, retrying }: { title: string; error: string; onRetry: () => void; retrying: boolean }) => {
  const headingId = queueHeadingId(title);
  return (
    <Card component="section" aria-labelledby={headingId} variant="outlined">
      <CardContent>
        <Typography id={headingId} variant="subtitle1" component="h2" color="text.secondary">
          {title}
        </Typography>
        <Typography role="alert" color="warning.main">
          Could not count: {error} —{' '}
          <Button size="small" onClick={onRetry} disabled={retrying} sx={{ verticalAlign: 'baseline', p: 0, minWidth: 0 }}>
            Try again
          </Button>
        </Typography>
      </CardContent>
    </Card>
  );
};
