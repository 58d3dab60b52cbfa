// The actors the server names itself (shared/people.ts) are read back as what they are, so the scanner
// UI says them in its language; a name a person gave is never mistaken for one of them.
import { describe, expect, it } from 'vitest';
import { SIGNIN_TOKEN_LABEL, UPSTREAM_CATALOGUE_ACTOR, actorForm, commandLineActorName, tokenActorName } from '../../shared/index.ts';

describe('actorForm', () => {
  it('reads back every actor the server makes', () => {
    expect(actorForm(SIGNIN_TOKEN_LABEL)).toEqual({ kind: 'signin-link' });
    expect(actorForm(UPSTREAM_CATALOGUE_ACTOR)).toEqual({ kind: 'upstream-catalogue' });
    expect(actorForm(commandLineActorName('ayse@shop-pc'))).toEqual({ kind: 'command-line', who: 'ayse@shop-pc' });
    expect(actorForm(tokenActorName(12))).toEqual({ kind: 'token', id: 12 });
  });

  it('leaves a given name as it is', () => {
    for (const name of ['Ayşe', 'Till 1', 'token', 'token 1a', 'command line', 'command line ()', 'Laptop (sign-in link)'])
      expect(actorForm(name)).toEqual({ kind: 'named', name });
  });
});
