// Asked when a sign-in link is opened while this device is signed in as another account: a page
// elsewhere can navigate the scanner to `#signin=<its own code>`, so the switch is never silent. It
// names the account the device is on and the one the link is for; a failed link is said here too.
import { signInTexts } from '../common/texts.ts';

export type SwitchPrompt = { kind: 'ask'; current: string; offered: string } | { kind: 'notice'; text: string };

export function SwitchAccountPrompt({ prompt, onSwitch, onStay }: { prompt: SwitchPrompt; onSwitch: () => void; onStay: () => void }) {
  return (
    <div
      className="switch-prompt"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="switch-prompt-text"
      data-testid="switch-account-prompt"
    >
      <div className="switch-prompt-box">
        <p id="switch-prompt-text">{prompt.kind === 'ask' ? signInTexts.switchQuestion(prompt.current, prompt.offered) : prompt.text}</p>
        {prompt.kind === 'ask' ? (
          <div className="switch-prompt-actions">
            <button type="button" className="primary" autoFocus onClick={onStay} data-testid="switch-account-stay">
              {signInTexts.switchCancel(prompt.current)}
            </button>
            <button type="button" onClick={onSwitch} data-testid="switch-account-confirm">
              {signInTexts.switchConfirm(prompt.offered)}
            </button>
          </div>
        ) : (
          <div className="switch-prompt-actions">
            <button type="button" className="primary" autoFocus onClick={onStay} data-testid="switch-account-stay">
              {signInTexts.dismiss}
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
