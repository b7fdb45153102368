import Foundation
import Testing

@Suite struct TmpStarveTests {
    @Test(arguments: 0..<4) func blockAPoolThread(_ index: Int) async {
        usleep(7_000_000)
        #expect(index >= 0)
    }
}
