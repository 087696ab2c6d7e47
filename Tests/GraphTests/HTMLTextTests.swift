import Testing

@testable import Graph

@Suite struct HTMLTextTests {
    @Test(arguments: [
        ("<p>One</p><p>Two</p>", "One\nTwo"),
        ("a&nbsp;&nbsp;b &lt;c&gt; &#8364; &#x263A; &unknown; & d", "a b <c> € ☺ &unknown; & d"),
        ("<ul><li>x</li><li>y</li></ul>", "- x\n- y"),
        ("<div>first</div>\r\n\r\n<div>   second   line</div><br><br><br>end", "first\nsecond line\n\nend"),
        ("<html><head><title>t</title><script>var a = '<p>';</script></head><body>Hi</body></html>", "Hi"),
        ("<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>", "a b\nc"),
    ])
    func htmlBecomesTheTextAPersonReads(_ html: String, _ text: String) {
        #expect(HTMLText.plainText(html) == text)
    }
}
