// A role given on the command line (`token create --role`, `token role`, `signin-link --role`): one
// of the roles that command may give, else commander's error naming the choices.
import { InvalidArgumentError } from 'commander';
import { type Role, roleMessages } from '../../shared/index.ts';

export function roleArgument<R extends Role>(choices: readonly R[]): (value: string) => R {
  return (value) => {
    const role = choices.find((r) => r === value);
    if (!role) throw new InvalidArgumentError(roleMessages.cannotGive(value, choices));
    return role;
  };
}
