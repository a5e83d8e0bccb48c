// A test chat host: loads the in-chat view in an iframe through ext-apps' AppBridge, records ui/message,
// and forwards the view's tool calls to the real MCP client in the test (window.callTool).
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

declare global {
  interface Window {
    messages: unknown[];
    toolCalls: { name: string; arguments?: Record<string, unknown> }[];
    callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
    openView(
      html: string,
      toolResult: unknown,
      theme: 'light' | 'dark',
      acceptMessages: boolean,
    ): Promise<void>;
  }
}

window.messages = [];
window.toolCalls = [];
window.openView = async (html, toolResult, theme, acceptMessages) => {
  const iframe = document.createElement('iframe');
  iframe.title = 'Screen';
  iframe.style.cssText = 'width:400px;height:560px;border:1px solid #ccc;border-radius:12px';
  document.body.append(iframe);
  const bridge = new AppBridge(
    null,
    { name: 'test-host', version: '1.0.0' },
    { serverTools: {} },
    { hostContext: { theme } },
  );
  bridge.onmessage = async (params) => {
    window.messages.push(params);
    return acceptMessages ? {} : { isError: true };
  };
  bridge.oncalltool = async (params) => {
    window.toolCalls.push(params);
    return (await window.callTool(params)) as never;
  };
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: {} });
    void bridge.sendToolResult(toolResult as never);
  };
  const win = iframe.contentWindow!;
  await bridge.connect(new PostMessageTransport(win, win));
  iframe.srcdoc = html;
};
