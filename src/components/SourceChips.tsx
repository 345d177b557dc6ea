import { Chip, Stack } from '@mui/material';
import type { User } from '../../server/contract';
import { ProviderAvatar } from './ProviderAvatar';

type ConnectedSource = User['connected_sources'][number];

/** The name to show for a connected source: the provider's name, else its slug. */
export function sourceName(source: ConnectedSource): string {
  return source.provider?.name || source.provider?.slug || source.source?.name || 'Unknown provider';
}

/**
 * One chip per connected provider. A missing or malformed list reads "No sources" rather than
 * crashing the row: the field comes from an upstream we do not control.
 */
export const SourceChips = ({ sources }: { sources: ConnectedSource[] | null | undefined }) => {
  if (!Array.isArray(sources) || sources.length === 0) {
    return <Chip label="No sources" variant="outlined" sx={{ color: 'text.secondary' }} />;
  }
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {sources.map((source, index) => {
        const name = sourceName(source);
        return (
          <Chip
            key={`${source.provider?.slug ?? name}-${index}`}
            label={name}
            variant="outlined"
            avatar={<ProviderAvatar name={name} slug={source.provider?.slug ?? name} />}
          />
        );
      })}
    </Stack>
  );
};
