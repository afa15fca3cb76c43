// What several `kagent space` verbs share.
import type { Space } from '../../src/api/shapes.js';

/** "🔬 Research (sp_3k9x8q2m7d)" */
export function label(space: Pick<Space, 'id' | 'name' | 'icon'>): string {
  return `${space.icon ? `${space.icon} ` : ''}${space.name} (${space.id})`;
}
