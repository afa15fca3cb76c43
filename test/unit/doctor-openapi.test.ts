// compareWithSpec and describeSpecDifferences (src/doctor/openapi.ts): a service's
// OpenAPI description set beside kagent's shapes, and the differences told in words.
import { describe, expect, it } from 'vitest';
import { compareWithSpec, describeSpecDifferences, type SpecDifference } from '../../src/doctor/openapi.js';

describe('compareWithSpec', () => {
  it('reads the types a schema names, its properties or its const imply, and tells each kind of difference', async () => {
    // GET /me described with an object implied by its properties, an id given as a const number,
    // a nullable name, a list of types, a free-form object and a field kagent does not know.
    const document = {
      paths: {
        '/me': {
          get: {
            responses: {
              '200': {
                content: {
                  'application/json': {
                    schema: {
                      properties: {
                        id: { const: 7 },
                        email: { type: 'string' },
                        name: { type: 'string', nullable: true },
                        emailVerified: { type: ['boolean', 'null'] },
                        plan: { properties: { id: { type: 'string' } } },
                        credits: { type: 'object' },
                        usage: {},
                        nickname: { type: 'string' },
                      },
                      required: ['id', 'email'],
                    },
                  },
                },
              },
            },
          },
        },
      },
    };
    const me = (await compareWithSpec(document)).find((c) => c.op === 'getMe');
    expect(me?.undescribed).toBeUndefined();
    expect(me?.differences).toEqual<SpecDifference[]>([
      { kind: 'retyped', path: 'id', kagent: 'string', service: 'number' },
      { kind: 'optional', path: 'name' },
      { kind: 'retyped', path: 'name', kagent: 'string', service: 'string|null' },
      { kind: 'optional', path: 'emailVerified' },
      { kind: 'retyped', path: 'emailVerified', kagent: 'boolean', service: 'boolean|null' },
      { kind: 'missing', path: 'lang' },
      { kind: 'optional', path: 'plan' },
      { kind: 'optional', path: 'plan.id' },
      { kind: 'missing', path: 'plan.name' },
      { kind: 'missing', path: 'trial' },
      { kind: 'optional', path: 'credits' },
      { kind: 'missing', path: 'limits' },
      { kind: 'optional', path: 'usage' },
      { kind: 'extra', path: 'nickname' },
    ]);
  });
});

describe('describeSpecDifferences', () => {
  it('names each kind in a fixed order, and counts what is past the most shown', () => {
    const differences: SpecDifference[] = [
      { kind: 'extra', path: 'slug' },
      { kind: 'optional', path: 'name' },
      { kind: 'retyped', path: 'date', kagent: 'string', service: 'number' },
      { kind: 'missing', path: 'a' },
      { kind: 'missing', path: 'b' },
      { kind: 'missing', path: 'c' },
    ];
    expect(describeSpecDifferences(differences, 2)).toBe(
      'missing: a, b, … 1 more; retyped: date (kagent string, service number); ' +
        'optional in the service: name; only in the service: slug',
    );
  });
});
