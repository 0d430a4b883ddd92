import { watchInterrupts, type Interrupts } from './interrupts';

describe('watchInterrupts', () => {
  let exitAtOnce: jest.Mock;
  let interrupts: Interrupts;
  beforeEach(() => {
    exitAtOnce = jest.fn();
    interrupts = watchInterrupts(exitAtOnce);
  });
  afterEach(() => interrupts.dispose());

  describe('on the first Ctrl+C', () => {
    it('aborts the signal the commands watch and leaves exiting to the entry point, with code 130', () => {
      process.emit('SIGINT');
      expect(interrupts.signal.aborted).toBe(true);
      expect(exitAtOnce).not.toHaveBeenCalled();
      expect(interrupts.exitCode).toBe(130);
    });
  });

  describe('on a second signal', () => {
    it('exits at once', () => {
      process.emit('SIGINT');
      process.emit('SIGTERM');
      expect(exitAtOnce).toHaveBeenCalledWith(143);
    });
  });

  it('hears nothing once disposed', () => {
    interrupts.dispose();
    const keepJestAlive = () => undefined;
    process.on('SIGINT', keepJestAlive);
    process.emit('SIGINT');
    process.off('SIGINT', keepJestAlive);
    expect(interrupts.signal.aborted).toBe(false);
  });
});
